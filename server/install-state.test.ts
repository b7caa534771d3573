// The install's secrets on Postgres (install-state.ts): created once however many processes start
// at once, taken over from an existing data dir, and a start that would lose the keys of existing
// data refused. SQLite keeps them in the data dir (secrets.ts; backup tests).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type DatabaseHandle } from './db/database'
import { migrateToLatest } from './db/migrate'
import { createLogger, silentLogger } from './logger'
import { SecretsMissingError, sharedSecrets } from './install-state'
import { generateSecrets, SecretsMismatchError } from './secrets'
import { postgresAvailable } from './testing/harness'
import { createSchema } from './testing/postgres'

describe.if(postgresAvailable())('install secrets on Postgres', () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  let handle: DatabaseHandle
  const emptyDir = () => mkdtempSync(join(tmpdir(), 'einlass-secrets-'))
  const clear = () => handle.db.deleteFrom('install_state').execute()
  beforeAll(async () => {
    schema = await createSchema()
    handle = await openDatabase({ dialect: 'postgres', url: schema.url, schema: schema.schema })
    await migrateToLatest(handle.db)
  })
  afterAll(async () => {
    await handle?.close()
    await schema?.drop()
  })

  test('ten processes starting at once on an empty database: one set of secrets, the same for all', async () => {
    await clear()
    const all = await Promise.all(Array.from({ length: 10 }, () => sharedSecrets(handle.db, emptyDir(), silentLogger)))
    expect(new Set(all.map((s) => JSON.stringify(s))).size).toBe(1)
    expect(all[0].uploadKey).toHaveLength(44)
    expect(await handle.db.selectFrom('install_state').select('name').execute()).toEqual([{ name: 'secrets' }])
  })

  test("an install that ran with one data dir: its secrets.json moves into the database; a second data dir's differing file loses, with a warning", async () => {
    await clear()
    const old = generateSecrets()
    const dir = emptyDir()
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify(old))
    expect(await sharedSecrets(handle.db, dir, silentLogger)).toEqual(old)
    const other = emptyDir()
    writeFileSync(join(other, 'secrets.json'), JSON.stringify(generateSecrets()))
    const lines: string[] = []
    expect(await sharedSecrets(handle.db, other, createLogger('warn', (l) => lines.push(l)))).toEqual(old)
    expect(lines.join('\n')).toContain('the database wins')
  })

  test('a key a later version adds is added once and the existing keys stay', async () => {
    await clear()
    const { uploadKey } = generateSecrets()
    await handle.db.insertInto('install_state').values({ name: 'secrets', value: JSON.stringify({ uploadKey }) }).execute()
    const all = await Promise.all(Array.from({ length: 5 }, () => sharedSecrets(handle.db, emptyDir(), silentLogger)))
    expect(new Set(all.map((s) => JSON.stringify(s))).size).toBe(1)
    expect(all[0].uploadKey).toBe(uploadKey)
    expect(all[0].signingKey).toHaveLength(44)
  })

  test('a database with data but no secrets, started from an empty data dir: refused, nothing generated', async () => {
    await clear()
    await handle.db.insertInto('agency').values({ display_name: 'Alt' }).execute()
    const refused = sharedSecrets(handle.db, emptyDir(), silentLogger)
    expect(refused).rejects.toThrow(SecretsMissingError)
    await refused.catch(() => {})
    expect(await handle.db.selectFrom('install_state').select('name').execute()).toEqual([])
  })

  test('secrets from the configuration: configured keys win and are never written; a differing stored key is refused', async () => {
    await clear()
    await handle.db.deleteFrom('agency').execute() // the test before left one
    const conf = generateSecrets()
    // every key configured: no row at all, however many processes start
    const all = await Promise.all(Array.from({ length: 3 }, () => sharedSecrets(handle.db, emptyDir(), silentLogger, conf)))
    for (const s of all) expect(s).toEqual(conf)
    expect(await handle.db.selectFrom('install_state').select('name').execute()).toEqual([])
    // one key configured: the other is created in the database, the configured one not
    const some = await Promise.all(Array.from({ length: 3 }, () => sharedSecrets(handle.db, emptyDir(), silentLogger, { uploadKey: conf.uploadKey })))
    expect(new Set(some.map((s) => JSON.stringify(s))).size).toBe(1)
    expect(some[0].uploadKey).toBe(conf.uploadKey)
    const row = JSON.parse((await handle.db.selectFrom('install_state').select('value').where('name', '=', 'secrets').executeTakeFirstOrThrow()).value)
    expect(Object.keys(row)).toEqual(['signingKey'])
    expect(row.signingKey).toBe(some[0].signingKey)
    // a configured key that differs from the stored one: refused, with every key or with one
    expect(sharedSecrets(handle.db, emptyDir(), silentLogger, { ...conf, signingKey: generateSecrets().signingKey })).rejects.toThrow(SecretsMismatchError)
    expect(sharedSecrets(handle.db, emptyDir(), silentLogger, { signingKey: generateSecrets().signingKey })).rejects.toThrow('the configured signingKey differs from the one in the database')
    // the stored one configured: fine
    expect(await sharedSecrets(handle.db, emptyDir(), silentLogger, { signingKey: row.signingKey, uploadKey: conf.uploadKey })).toEqual({ uploadKey: conf.uploadKey, signingKey: row.signingKey })
  })
})
