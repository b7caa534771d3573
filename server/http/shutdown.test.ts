// Graceful shutdown of a real process: SIGTERM stops accepting, lets the running request finish,
// closes the database and exits 0.
import { expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { startServerProcess } from '../testing/process'
import { patientTests } from '../testing/harness'

patientTests()

test('SIGTERM: a slow request in flight completes, new connections are refused, the database is closed, exit 0', async () => {
  const server = await startServerProcess({ env: { EINLASS_LOG_LEVEL: 'info' } })
  try {
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
    const setup = await post('/proxy/api/setup', { agencyName: 'Shutdown GmbH', email: 's@example.org', password: 'Geheim123!', firstName: 'S', lastName: 'S' })
    const cookie = setup.headers.getSetCookie()[0].split(';')[0]
    const start = new Date(Date.now() + 86400_000)
    const ev = await post('/proxy/api/events', { displayName: 'Letzter Abend', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Saal', maxVisitors: 10 }, cookie)
    const eventId = (await ev.json()).id

    // a client that sends its body slowly: the request is in flight when the signal arrives
    let fresh = ''
    const body = JSON.stringify({ salutation: 'Herr', firstName: 'Lars', lastName: 'Langsam', email: 'langsam@example.org' })
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      })
      req.on('error', reject)
      req.write(body.slice(0, 20))
      setTimeout(() => {
        server.proc.kill('SIGTERM')
        setTimeout(async () => {
          // the listener is closed: a new connection is refused
          fresh = await fetch(`${server.url}/health`).then(
            (r) => `answered ${r.status}`,
            () => 'refused',
          )
          req.end(body.slice(20))
        }, 400)
      }, 200)
    })
    const res = await answer
    expect(fresh).toBe('refused')
    expect(res.status).toBe(201)
    expect(JSON.parse(res.body).status).toBe('CONFIRMED')

    const code = await server.exited
    expect(code).toBe(0)
    const msgs = server.records().map((r) => r.msg)
    expect(msgs).toContain('shutting down')
    expect(msgs[msgs.length - 1]).toBe('stopped')
    // SQLite removes the WAL file when the last connection closes cleanly
    expect(existsSync(join(server.dataDir, 'einlass.sqlite'))).toBe(true)
    expect(existsSync(join(server.dataDir, 'einlass.sqlite-wal'))).toBe(false)
  } finally {
    await server.stop()
  }
})
