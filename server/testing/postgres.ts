// Postgres for tests: TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test); every
// harness works in a fresh schema it creates and drops. With CI=true an unreachable server fails the
// run; elsewhere the Postgres half of the suite is skipped with a notice.
import pg from 'pg'

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export async function postgresReachable(url = TEST_POSTGRES_URL): Promise<string | null> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await c.connect()
    await c.query('select 1')
    return null
  } catch (e) {
    return (e as Error).message
  } finally {
    await c.end().catch(() => {})
  }
}

export async function createSchema(): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const c = new pg.Client({ connectionString: TEST_POSTGRES_URL })
  await c.connect()
  await c.query(`create schema ${schema}`)
  await c.end()
  const u = new URL(TEST_POSTGRES_URL)
  u.searchParams.set('schema', schema)
  return {
    schema,
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await d.connect()
      await d.query(`drop schema if exists ${schema} cascade`)
      await d.end()
    },
  }
}
