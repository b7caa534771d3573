// Shared bits of the local payment provider fakes (docs/payments.md, "Tested with no internet"):
// a Bun.serve on 127.0.0.1 with a random port, idempotency replay, and failure modes the tests
// switch on (a 500 answer or an answer that never comes).
/** 'lost': the provider does the work, but its answer never arrives (a 500 instead); a retry with the same idempotency key gets the first answer */
export type FailureMode = null | '500' | 'timeout' | 'lost'

export interface FakeBase {
  url: string
  port: number
  /** the next provider calls answer 500 or hang (until reset to null) */
  fail: FailureMode
  /** every API call received, for assertions */
  calls: Array<{ method: string; path: string; idempotencyKey: string | null }>
  stop(): void
}

export const rid = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`

export function startFake(route: (req: Request, url: URL, body: string) => Promise<Response> | Response): FakeBase {
  const replay = new Map<string, { status: number; text: string; type: string }>()
  const base: FakeBase = { url: '', port: 0, fail: null, calls: [], stop: () => server.stop(true) }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      const key = req.headers.get('idempotency-key') ?? req.headers.get('paypal-request-id')
      const api = !url.pathname.startsWith('/checkout/')
      if (api) base.calls.push({ method: req.method, path: url.pathname, idempotencyKey: key })
      if (api && base.fail === '500') return Response.json({ error: { message: 'fake provider down' } }, { status: 500, headers: { 'retry-after': '0' } })
      if (api && base.fail === 'timeout') return new Promise<Response>(() => {})
      if (key && req.method === 'POST') {
        const seen = replay.get(`${url.pathname}|${key}`)
        if (seen) return new Response(seen.text, { status: seen.status, headers: { 'content-type': seen.type } })
      }
      const res = await route(req, url, body)
      if (key && req.method === 'POST' && res.status < 500) {
        const text = await res.clone().text()
        replay.set(`${url.pathname}|${key}`, { status: res.status, text, type: res.headers.get('content-type') ?? 'application/json' })
      }
      if (api && base.fail === 'lost') return Response.json({ error: { message: 'fake provider: answer lost' } }, { status: 500, headers: { 'retry-after': '0' } })
      return res
    },
  })
  base.port = server.port!
  base.url = `http://127.0.0.1:${server.port}`
  return base
}

export const notFoundJson = (what: string) => Response.json({ error: { type: 'invalid_request_error', message: `No such ${what}` }, status: 404, title: 'Not Found', detail: `No such ${what}` }, { status: 404 })
