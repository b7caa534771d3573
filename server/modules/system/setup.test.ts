// First-start setup answers only while no user exists; racing setups make exactly one agency.
import { expect, test } from 'bun:test'
import { sql } from 'kysely'
import { openDatabase } from '../../db/database'
import { forEachDialect, TEST_PASSWORD } from '../../testing/harness'

const body = (i: number) => ({ agencyName: `Agentur ${i}`, email: `setup${i}@example.org`, password: TEST_PASSWORD, firstName: 'Erste', lastName: 'Person' })

forEachDialect('first-start setup', (h, dialect) => {
  test('open while no user exists; ten concurrent setups: exactly one wins, the rest get SETUP_DONE', async () => {
    expect((await h().request('GET', '/proxy/api/setup')).body).toEqual({ required: true })
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => h().request('POST', '/proxy/api/setup', { body: body(i) })))
    const won = results.filter((r) => r.status === 200)
    expect(won.length).toBe(1)
    const lost = results.filter((r) => r.status !== 200)
    expect(lost.map((r) => r.status)).toEqual(lost.map(() => 409))
    expect(lost[0].body).toEqual({ status: 409, errorType: 'SETUP_DONE', errorMessage: 'einlass ist bereits eingerichtet.', errorTranslation: 'einlass ist bereits eingerichtet.' })
    const db = h().ctx.db
    expect((await db.selectFrom('app_user').select('id').execute()).length).toBe(1)
    expect((await db.selectFrom('agency').select('id').execute()).length).toBe(1)
    expect((await db.selectFrom('account').select('user_role').execute()).map((a) => a.user_role)).toEqual(['AGENCY_ADMIN'])
    // the winner is logged in
    expect(won[0].headers.getSetCookie()[0]).toContain('HttpOnly')
  })

  // Postgres only: several processes may share it. SQLite is one process with one connection whose
  // write transactions are queued by the driver (the test above), and a second connection in this
  // process would block the whole thread in busy_timeout.
  test.if(dialect === 'postgres')('a setup that starts while another process is mid-setup waits for it, then refuses', async () => {
    // a second process of the same installation, half-way through its own setup
    const other = await openDatabase(h().ctx.config.databaseTarget, { poolSize: 1 })
    try {
      await other.db.deleteFrom('account').execute()
      await other.db.deleteFrom('app_user').execute()
      let finished = false
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      const otherSetup = other.db.transaction().execute(async (trx) => {
        // what createAgencyWithAdmin does first on Postgres: the setup lock
        await sql`select pg_advisory_xact_lock(4242001)`.execute(trx)
        await trx.insertInto('app_user').values({ email: 'other-process@example.org', password_hash: null, status: 'OK' }).execute()
        await held
      })
      await Bun.sleep(50)
      const racing = h()
        .request('POST', '/proxy/api/setup', { body: body(7) })
        .then((r) => {
          finished = true
          return r
        })
      await Bun.sleep(300)
      expect(finished).toBe(false)
      release()
      await otherSetup
      const r = await racing
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('SETUP_DONE')
      expect((await h().ctx.db.selectFrom('app_user').select('email').execute()).map((u) => u.email)).toEqual(['other-process@example.org'])
    } finally {
      await other.close()
    }
  })

  test('closed once a user exists', async () => {
    expect((await h().request('GET', '/proxy/api/setup')).body).toEqual({ required: false })
    const again = await h().request('POST', '/proxy/api/setup', { body: body(99) })
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('SETUP_DONE')
    expect((await h().ctx.db.selectFrom('app_user').select('id').execute()).length).toBe(1)
  })
})
