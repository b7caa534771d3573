// Runs once before the test files: decides whether the Postgres half of the suite runs.
import { postgresReachable, TEST_POSTGRES_URL } from './postgres'
import '../shared/validation'

const problem = await postgresReachable()
const ci = process.env.CI === 'true'
if (problem) {
  if (ci) {
    console.error(`\nPostgres at ${TEST_POSTGRES_URL} is unreachable (${problem}); CI=true requires it. Failing.\n`)
    process.exit(1)
  }
  console.warn(`\nNOTICE: Postgres at ${TEST_POSTGRES_URL} is unreachable (${problem}); Postgres tests are skipped. Set CI=true to make this an error.\n`)
}
;(globalThis as any).__EINLASS_PG__ = !problem
