// What the processes of one Postgres install share instead of each keeping it in its own data dir
// (issue 22, docs/operations.md "Several processes"): the generated secrets, created once by the
// first process (insert … on conflict do nothing, then everyone reads the one row that won), and an
// installed license. SQLite installs keep both in the data dir (secrets.ts, license.json).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from './db/database'
import type { Logger } from './logger'
import { generateSecrets, ownKeys, pickKeys, refuseMismatch, type Secrets } from './secrets'

/** A start that would lose access to encrypted data: refused with this line. */
export class SecretsMissingError extends Error {}

const readRow = async (db: Db, name: string) => (await db.selectFrom('install_state').select('value').where('name', '=', name).executeTakeFirst())?.value ?? null

function fileSecrets(dataDir: string): Partial<Secrets> | null {
  const file = join(dataDir, 'secrets.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>) : null
}

/**
 * The install's secrets from the database. The first process puts them there: the data dir's
 * secrets.json when it has one (an install that ran with one process and its data dir until now:
 * its uploads and sealed secrets stay readable), freshly generated on an empty database. A database
 * that already holds data but no secrets, started from a data dir without secrets.json, is refused:
 * new keys would make its uploads, 2FA seeds and payment secrets unreadable.
 */
export async function sharedSecrets(db: Db, dataDir: string, log: Logger, configured: Partial<Secrets> = {}): Promise<Secrets> {
  // keys the configuration names (secrets.ts) are never written into the database
  const own = ownKeys(configured)
  const local = fileSecrets(dataDir)
  let stored = await readRow(db, 'secrets')
  if (!own.length) {
    if (stored !== null) refuseMismatch(configured, JSON.parse(stored) as Partial<Secrets>, 'the database (install_state)')
    return configured as Secrets
  }
  if (stored === null) {
    if (!local) {
      const used = await db.selectFrom('agency').select('id').limit(1).executeTakeFirst()
      if (used)
        throw new SecretsMissingError(
          `the database holds data but not its secrets; start einlass once with the data dir whose secrets.json belongs to this database (it moves them into the database), or copy that file into ${dataDir}`,
        )
    }
    const first = pickKeys({ ...generateSecrets(), ...local }, own)
    await db
      .insertInto('install_state')
      .values({ name: 'secrets', value: JSON.stringify(first) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    stored = (await readRow(db, 'secrets'))!
    if (stored === JSON.stringify(first)) log.info(local ? 'secrets moved from the data dir into the database' : 'secrets created in the database')
  }
  let secrets = JSON.parse(stored) as Secrets
  refuseMismatch(configured, secrets, 'the database (install_state)')
  // a key added by a later version: added once, by whichever process gets there first
  const complete = { ...pickKeys(generateSecrets(), own), ...secrets }
  if (Object.keys(complete).length !== Object.keys(secrets).length) {
    await db.updateTable('install_state').set({ value: JSON.stringify(complete) }).where('name', '=', 'secrets').where('value', '=', stored).execute()
    secrets = JSON.parse((await readRow(db, 'secrets'))!) as Secrets
  }
  if (local && own.some((k) => local[k] !== undefined && local[k] !== secrets[k])) {
    log.warn('secrets.json in the data dir differs from the secrets in the database; the database wins (the file is not used with Postgres)')
  }
  return { ...secrets, ...configured }
}

/** The license installed into the database (`einlass license install`), or null. */
export const storedLicense = (db: Db) => readRow(db, 'license')

/** Installs a (verified) license text for every process of the install. */
export async function storeLicense(db: Db, text: string) {
  await db
    .insertInto('install_state')
    .values({ name: 'license', value: text })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: text, updated_at: new Date().toISOString() }))
    .execute()
}
