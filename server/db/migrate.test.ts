// Migrations on a Postgres shared by several test runs: Kysely's table check reads the catalogue of
// every schema, so another run dropping its schema at that moment fails the check although ours is
// fine; such failures (and only those) are retried (migrate.ts).
import { expect, test } from 'bun:test'
import { otherSchemaVanished } from './migrate'

test('errors about another schema vanishing are recognised; errors about our own schema are not', () => {
  const own = 't_own_1'
  expect(otherSchemaVanished(new Error('cache lookup failed for relation 123456'), own)).toBe(true)
  expect(otherSchemaVanished(new Error('schema "t_other_2" does not exist'), own)).toBe(true)
  expect(otherSchemaVanished(new Error('relation "t_other_2.escort_person" does not exist'), own)).toBe(true)
  expect(otherSchemaVanished(new Error('schema "t_own_1" does not exist'), own)).toBe(false)
  expect(otherSchemaVanished(new Error('relation "t_own_1.escort_person" does not exist'), own)).toBe(false)
  expect(otherSchemaVanished(new Error('relation "escort_person" does not exist'), own)).toBe(false)
  expect(otherSchemaVanished(new Error('syntax error at or near "tabel"'), own)).toBe(false)
})
