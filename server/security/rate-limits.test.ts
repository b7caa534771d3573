// Rate limits cannot be bypassed with a made-up X-Forwarded-For: without a configured trusted proxy
// the client is the connection's address for EVERY request shape. The `/api/…` alias and chunked
// bodies make the app see a new Request object, for which Bun knows no connection; the address must
// still be the connection's (it used to fall back to the header, so each request had its own limit).
import { afterAll, describe, expect, test } from 'bun:test'
import { RATE_LIMITS } from '../modules/identity/rate-limit'
import { patientTests } from '../testing/harness'
import { type ServerProcess, startServerProcess } from '../testing/process'

patientTests()

let n = 0
type Shape = { name: string; path: (p: string) => string; chunked: boolean }
const SHAPES: Shape[] = [
  { name: '/proxy/api with Content-Length', path: (p) => `/proxy${p}`, chunked: false },
  { name: '/api alias with Content-Length', path: (p) => p, chunked: false },
  { name: '/proxy/api with a chunked body', path: (p) => `/proxy${p}`, chunked: true },
  { name: '/api alias with a chunked body', path: (p) => p, chunked: true },
]

function send(s: ServerProcess, shape: Shape, path: string, payload: unknown, xff: string) {
  const bytes = new TextEncoder().encode(JSON.stringify(payload))
  // a ReadableStream body has no length: fetch sends it with Transfer-Encoding: chunked
  const body = shape.chunked
    ? new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, 5))
          c.enqueue(bytes.slice(5))
          c.close()
        },
      })
    : bytes
  return fetch(`${s.url}${shape.path(path)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': xff, origin: s.url },
    body,
    duplex: 'half',
  } as RequestInit)
}

describe('client address for rate limits: connection unless a trusted proxy sent the request', () => {
  const servers: ServerProcess[] = []
  let server: ServerProcess
  afterAll(async () => {
    for (const s of servers) await s.stop()
  })

  for (const [i, shape] of SHAPES.entries()) {
    test(`access links per address (${RATE_LIMITS.ACCESS_LINK_ADDRESS.max}/h): ${shape.name}, made-up X-Forwarded-For on each request`, async () => {
      // one process per shape: each starts with a fresh counter for 127.0.0.1
      server = await startServerProcess()
      servers.push(server)
      const max = RATE_LIMITS.ACCESS_LINK_ADDRESS.max
      const statuses: number[] = []
      for (let k = 0; k <= max; k++) {
        const r = await send(server, shape, '/api/public/visitor/resendMail', { email: `probe${++n}@example.org` }, `198.51.${i}.${k}`)
        statuses.push(r.status)
        await r.arrayBuffer()
      }
      expect(statuses.slice(0, max)).toEqual(Array(max).fill(404))
      expect(statuses[max]).toBe(429)

      // and a second limit on the same shape: "Passwort vergessen" per address
      const resetMax = RATE_LIMITS.PASSWORD_RESET_ADDRESS.max
      const resets: number[] = []
      for (let k = 0; k <= resetMax; k++) {
        const r = await send(server, shape, '/api/public/password/forgot', { email: `reset${++n}@example.org` }, `203.0.${i}.${k}`)
        resets.push(r.status)
        await r.arrayBuffer()
      }
      expect(resets[resetMax]).toBe(429)
    })
  }
})
