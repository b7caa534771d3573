// A tiny authoritative DNS server for tests: answers TXT queries from a map (name → strings) over
// UDP on a random local port, so the sending-domain check (EINLASS_DNS_RESOLVER) runs offline.
import { createSocket, type Socket } from 'node:dgram'

export class TestDnsServer {
  /** lower-case name → TXT records (each one string; long ones are split into 255-byte chunks) */
  readonly txt = new Map<string, string[]>()
  port = 0
  private socket: Socket | null = null

  // node:dgram, so the journeys (Playwright runs under Node) use it as the bun tests do
  async start(): Promise<this> {
    const socket = createSocket('udp4')
    socket.on('message', (buf, rinfo) => {
      const answer = this.answer(buf)
      if (answer) socket.send(answer, rinfo.port, rinfo.address)
    })
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()))
    this.socket = socket
    this.port = socket.address().port
    return this
  }

  get address() {
    return `127.0.0.1:${this.port}`
  }

  set(name: string, records: string[]) {
    this.txt.set(name.toLowerCase().replace(/\.$/, ''), records)
  }

  private answer(q: Buffer): Buffer | null {
    if (q.length < 12) return null
    let off = 12
    const labels: string[] = []
    while (off < q.length && q[off] !== 0) {
      const len = q[off]!
      labels.push(q.subarray(off + 1, off + 1 + len).toString('latin1'))
      off += 1 + len
    }
    off += 1
    const qtype = q.readUInt16BE(off)
    const question = q.subarray(12, off + 4)
    const name = labels.join('.').toLowerCase()
    const records = qtype === 16 ? (this.txt.get(name) ?? []) : []
    const known = this.txt.has(name)
    const header = Buffer.alloc(12)
    header.writeUInt16BE(q.readUInt16BE(0), 0)
    header.writeUInt16BE(0x8400 | (q.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2) // QR, AA, RD copied; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(records.length, 6)
    const answers = records.map((r) => {
      const bytes = Buffer.from(r, 'utf8')
      const chunks: Buffer[] = []
      for (let i = 0; i < bytes.length || i === 0; i += 255) {
        const part = bytes.subarray(i, i + 255)
        chunks.push(Buffer.from([part.length]), part)
        if (bytes.length === 0) break
      }
      const rdata = Buffer.concat(chunks)
      const rr = Buffer.alloc(12)
      rr.writeUInt16BE(0xc00c, 0)
      rr.writeUInt16BE(16, 2)
      rr.writeUInt16BE(1, 4)
      rr.writeUInt32BE(60, 6)
      rr.writeUInt16BE(rdata.length, 10)
      return Buffer.concat([rr, rdata])
    })
    return Buffer.concat([header, question, ...answers])
  }

  stop() {
    this.socket?.close()
  }
}
