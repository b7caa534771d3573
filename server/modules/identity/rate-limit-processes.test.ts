// Rate limits hold across server processes: the counters are rows in the shared database, counted
// by one atomic upsert, so attempts spread over two einlass processes add up exactly.
import { describe, expect, test } from 'bun:test'
import { postgresAvailable } from '../../testing/harness'
import type { ServerProcess } from '../../testing/process'
import { twoProcessesOnPostgres } from '../../testing/two-processes'
import { RATE_LIMITS } from './rate-limit'

describe.if(postgresAvailable())('login rate limit with two server processes on one Postgres', () => {
  const procs = twoProcessesOnPostgres()

  const login = (s: ServerProcess, email: string, password: string) => procs().send(s, 'POST', '/auth/login', { email, password })

  test('20 wrong passwords at once over both processes: exactly 10 are checked, 10 throttled; then the right one is throttled too', async () => {
    const email = 'admin@zwei-prozesse.example'
    await procs().setupAgency(email)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(procs().either(i), email, `Falsch${i}!Aa`)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBe(RATE_LIMITS.LOGIN_ACCOUNT.max)
    expect(statuses.filter((s) => s === 429).length).toBe(20 - RATE_LIMITS.LOGIN_ACCOUNT.max)
    for (const s of [procs().one, procs().two]) {
      const r = await login(s, email, 'Geheim123!')
      expect(r.status).toBe(429)
      expect((await r.json()).errorType).toBe('RATE_LIMITED')
    }
  }, 60_000)
})
