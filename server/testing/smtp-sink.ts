// A real SMTP server for tests: accepts every mail on a random local port and keeps it parsed.
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  subject: string
  text: string
  html: string
  parsed: ParsedMail
  /** the message as received (for signature checks) */
  raw: Buffer
}

export interface SmtpSinkOptions {
  /** require AUTH PLAIN/LOGIN with these credentials (over plain TCP: a local test server) */
  auth?: { user: string; pass: string }
}

export class SmtpSink {
  readonly mails: ReceivedMail[] = []
  private server: SMTPServer
  private waiters: Array<() => void> = []
  /** make the next n deliveries fail with failCode (451: try again later; 550: permanent) */
  failNext = 0
  failCode = 451
  /** answer each mail only after this many ms (a slow SMTP server) */
  delayMs = 0
  port = 0

  /** logins tried, with their outcome */
  readonly logins: Array<{ user: string; ok: boolean }> = []

  constructor(opts: SmtpSinkOptions = {}) {
    const auth = opts.auth
    this.server = new SMTPServer({
      authOptional: !auth,
      disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      allowInsecureAuth: !!auth,
      logger: false,
      onAuth: (a, _session, cb) => {
        const ok = !!auth && a.username === auth.user && a.password === auth.pass
        this.logins.push({ user: a.username ?? '', ok })
        if (!ok) return cb(new Error('Invalid username or password'))
        cb(null, { user: a.username })
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', async () => {
          if (this.failNext > 0) {
            this.failNext--
            const err: any = new Error(this.failCode >= 500 ? 'mailbox unavailable' : 'try again later')
            err.responseCode = this.failCode
            return cb(err)
          }
          if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs))
          const raw = Buffer.concat(chunks)
          const parsed = await simpleParser(raw)
          this.mails.push({
            from: session.envelope.mailFrom ? (session.envelope.mailFrom as any).address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
            raw,
          })
          cb()
          for (const w of this.waiters.splice(0)) w()
        })
      },
    })
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()))
    this.port = (this.server.server.address() as { port: number }).port
    return this
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`
  }

  /** Mails sent to an address (newest last). */
  to(address: string) {
    return this.mails.filter((m) => m.to.includes(address.toLowerCase()))
  }

  async waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const hit = this.mails.find(predicate)
      if (hit) return hit
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no matching mail within ${timeoutMs} ms; got: ${this.mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join(' | ') || 'none'}`)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }

  async stop() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

/** The first link in a mail's text that contains the given path. */
export function linkIn(mail: ReceivedMail, pathPart: string): string {
  const m = mail.text.match(new RegExp(`https?://\\S*${pathPart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S*`))
  if (!m) throw new Error(`no link with ${pathPart} in mail "${mail.subject}"`)
  return m[0]
}
