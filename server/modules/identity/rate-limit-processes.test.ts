// Rate limits hold across server processes: the counters are rows in the shared database, counted
// by one atomic upsert, so attempts spread over two einlass processes add up exactly.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { postgresAvailable } from '../../testing/harness'
import { createSchema } from '../../testing/postgres'
import { type ServerProcess, startServerProcess } from '../../testing/process'
import { RATE_LIMITS } from './rate-limit'

describe.if(postgresAvailable())('login rate limit with two server processes on one Postgres', () => {
  let pg: Awaited<ReturnType<typeof createSchema>>
  let one: ServerProcess
  let two: ServerProcess
  beforeAll(async () => {
    pg = await createSchema()
    one = await startServerProcess({ env: { DATABASE_URL: pg.url } })
    two = await startServerProcess({ env: { DATABASE_URL: pg.url } })
  }, 60_000)
  afterAll(async () => {
    await one?.stop()
    await two?.stop()
    await pg?.drop()
  })

  const login = (s: ServerProcess, email: string, password: string) =>
    fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })

  test('20 wrong passwords at once over both processes: exactly 10 are checked, 10 throttled; then the right one is throttled too', async () => {
    const email = 'admin@zwei-prozesse.example'
    const setup = await fetch(`${one.url}/proxy/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agencyName: 'Zwei Prozesse', email, password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' }),
    })
    expect(setup.status).toBe(200)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(i % 2 ? one : two, email, `Falsch${i}!Aa`)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBe(RATE_LIMITS.LOGIN_ACCOUNT.max)
    expect(statuses.filter((s) => s === 429).length).toBe(20 - RATE_LIMITS.LOGIN_ACCOUNT.max)
    for (const s of [one, two]) {
      const r = await login(s, email, 'Geheim123!')
      expect(r.status).toBe(429)
      expect((await r.json()).errorType).toBe('RATE_LIMITED')
    }
  }, 60_000)
})
