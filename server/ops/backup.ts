// `einlass backup` and `einlass restore` for the SQLite default (issue 22 "Backup, restore, upgrade").
//
//   einlass backup FILE.sqlite   the database alone (VACUUM INTO: consistent while the server writes)
//   einlass backup DIR           everything a restore needs: the database, secrets.json (the upload
//                                key and the signing keys: without them encrypted uploads and printed
//                                QR codes are dead), license.json, every upload, and manifest.json with
//                                the SHA-256 of each file
//   einlass restore SOURCE [--force]
//
// The database is copied first and the uploads after it, so every upload its rows name is there
// unless it was deleted meanwhile (the live install deleted it too; the backup says how many). A
// restore checks the backup before it touches anything, refuses a data dir that holds an install
// unless --force (which moves that install aside, never deletes it), checks every file it copied
// against the manifest, and ends every login (sessions of the old install must not outlive it).
import { Database as BunDatabase } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join, relative, resolve } from 'node:path'
import type { Config } from '../config/config'

export class OpsError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message)
  }
}

interface Manifest {
  format: 'einlass-backup'
  version: 1
  createdAt: string
  database: { file: string; sha256: string }
  files: Record<string, string>
  /** uploads the database names that were deleted while the backup ran */
  missingUploads: number
  /** the bucket holding the uploads (S3 storage): not in the backup, backed up by its own means */
  uploadsIn?: string
}

const DB_FILE = 'einlass.sqlite'
const sha256File = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...listFiles(p))
    else if (e.isFile()) out.push(p)
  }
  return out
}

function sqliteOnly(config: Config, what: (url: string, schemaFlag: string) => string): string {
  const target = config.databaseTarget
  if (target.dialect === 'sqlite') return target.path
  // pg_dump and pg_restore (libpq) refuse einlass's ?schema=: the URL without it, the schema by name
  if (target.schema) throw new OpsError(`${what(`"<DATABASE_URL without ?schema=${target.schema}>"`, ` --schema=${target.schema}`)}; the schema keeps its name`)
  throw new OpsError(what('"$DATABASE_URL"', ''))
}

/** VACUUM INTO a new file and check it; the server may keep writing meanwhile */
function snapshot(source: string, out: string) {
  const db = new BunDatabase(source, { readonly: true })
  try {
    db.exec('pragma busy_timeout = 10000')
    db.prepare('vacuum into ?').run(out)
  } finally {
    db.close()
  }
  const problem = integrityProblem(out)
  if (problem) throw new OpsError(`einlass: backup written but integrity check says: ${problem}`)
}

function integrityProblem(file: string): string | null {
  try {
    const check = new BunDatabase(file, { readonly: true })
    try {
      const ok = (check.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check
      return ok === 'ok' ? null : ok
    } finally {
      check.close()
    }
  } catch (e) {
    return (e as Error).message
  }
}

export function backup(config: Config, target: string): string {
  const source = sqliteOnly(config, (url, schema) => `einlass: the database is Postgres; back it up with pg_dump (for example: pg_dump --format=custom${schema} --file=einlass.dump ${url})`)
  if (!existsSync(source)) throw new OpsError(`einlass: no database at ${source}`)
  const out = resolve(target)
  if (existsSync(out)) throw new OpsError(`einlass: ${out} exists; choose a new file name`)
  const dbOnly = ['.sqlite', '.db', '.sqlite3'].includes(extname(out).toLowerCase())
  if (dbOnly) {
    mkdirSync(dirname(out), { recursive: true })
    snapshot(source, out)
    return `backup written to ${out}`
  }
  mkdirSync(out, { recursive: true })
  try {
    const dbOut = join(out, DB_FILE)
    snapshot(source, dbOut)
    const files: Record<string, string> = {}
    const copy = (from: string, rel: string) => {
      const to = join(out, rel)
      mkdirSync(dirname(to), { recursive: true })
      copyFileSync(from, to)
      files[rel] = sha256File(to)
    }
    const data = config.dataDir
    if (existsSync(join(data, 'secrets.json'))) {
      copy(join(data, 'secrets.json'), 'secrets.json')
      chmodSync(join(out, 'secrets.json'), 0o600)
    }
    if (existsSync(join(data, 'license.json'))) copy(join(data, 'license.json'), 'license.json')
    if (existsSync(join(data, 'einlass.toml'))) copy(join(data, 'einlass.toml'), 'einlass.toml')
    // Uploads in an S3 bucket are not copied: the bucket is backed up by its own means (versioning,
    // replication; docs/operations.md "Storage"), and the manifest names it.
    const target = config.storageTarget
    if (target.kind === 's3') {
      const bucket = `s3://${target.bucket}/${target.prefix}`
      const manifest: Manifest = { format: 'einlass-backup', version: 1, createdAt: new Date().toISOString(), database: { file: DB_FILE, sha256: sha256File(dbOut) }, files, missingUploads: 0, uploadsIn: bucket }
      writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2))
      return `backup written to ${out} (database, ${files['secrets.json'] ? 'secrets' : 'no secrets'}; the uploads are in ${bucket}: back that bucket up by its own means, see docs/operations.md "Storage")`
    }
    // uploads after the database: a file deleted meanwhile is counted, not an error
    const uploads = target.dir
    for (const f of listFiles(uploads)) {
      try {
        copy(f, join('uploads', relative(uploads, f)))
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      }
    }
    const missingUploads = missingUploadsOf(dbOut, (key) => existsSync(join(out, 'uploads', key)))
    const manifest: Manifest = { format: 'einlass-backup', version: 1, createdAt: new Date().toISOString(), database: { file: DB_FILE, sha256: sha256File(dbOut) }, files, missingUploads }
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2))
    const uploadsCopied = Object.keys(files).filter((k) => k.startsWith('uploads/')).length
    return `backup written to ${out} (database, ${files['secrets.json'] ? 'secrets' : 'no secrets'}, ${uploadsCopied} upload files${missingUploads ? `; ${missingUploads} uploads were deleted while it ran` : ''})`
  } catch (e) {
    rmSync(out, { recursive: true, force: true })
    throw e
  }
}

/** uploads the database names whose file is absent */
function missingUploadsOf(dbFile: string, has: (key: string) => boolean): number {
  const db = new BunDatabase(dbFile, { readonly: true })
  try {
    const keys = db.query('select storage_key from asset').all() as Array<{ storage_key: string }>
    return keys.filter((k) => !has(k.storage_key)).length
  } finally {
    db.close()
  }
}

/** what of an install a data dir holds (what a restore would overwrite) */
function installIn(dataDir: string, dbPath: string): string[] {
  const found: string[] = []
  for (const p of [dbPath, `${dbPath}-wal`, join(dataDir, 'secrets.json'), join(dataDir, 'license.json'), join(dataDir, 'uploads')]) {
    if (!existsSync(p)) continue
    if (p.endsWith('uploads') && statSync(p).isDirectory() && !listFiles(p).length) continue
    found.push(p)
  }
  return found
}

export function restore(config: Config, sourceArg: string, force: boolean): string {
  const dbPath = sqliteOnly(
    config,
    (url) => `einlass: the database is Postgres; restore it with pg_restore (for example: pg_restore --clean --if-exists --no-owner --dbname=${url} einlass.dump), see docs/operations.md`,
  )
  const source = resolve(sourceArg)
  if (!existsSync(source)) throw new OpsError(`einlass: no backup at ${source}`)
  const full = statSync(source).isDirectory()
  let manifest: Manifest | null = null
  const sourceDb = full ? join(source, DB_FILE) : source
  // check the backup before anything in the data dir changes
  if (full) {
    if (!existsSync(join(source, 'manifest.json'))) throw new OpsError(`einlass: ${source} is not an einlass backup (no manifest.json)`)
    manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8')) as Manifest
    if (manifest.format !== 'einlass-backup') throw new OpsError(`einlass: ${source} is not an einlass backup`)
    if (sha256File(sourceDb) !== manifest.database.sha256) throw new OpsError(`einlass: the backup is damaged: ${DB_FILE} differs from its checksum`)
    for (const [rel, sum] of Object.entries(manifest.files)) {
      const p = join(source, rel)
      if (!existsSync(p) || sha256File(p) !== sum) throw new OpsError(`einlass: the backup is damaged: ${rel} is missing or differs from its checksum`)
    }
  }
  const problem = integrityProblem(sourceDb)
  if (problem) throw new OpsError(`einlass: the backup's database is damaged: ${problem}`)

  const dataDir = config.dataDir
  const present = installIn(dataDir, dbPath)
  let movedTo: string | null = null
  if (present.length) {
    if (!force) throw new OpsError(`einlass: ${dataDir} holds an install (${present.map((p) => basename(p)).join(', ')}); restore into an empty data dir, or add --force to move it aside first`)
    movedTo = join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`)
    mkdirSync(movedTo, { recursive: true })
    for (const p of [...present, `${dbPath}-shm`]) if (existsSync(p)) renameSync(p, join(movedTo, basename(p)))
  }
  mkdirSync(dirname(dbPath), { recursive: true })
  // the database under a temporary name, sessions ended, then renamed into place in one step
  const temp = `${dbPath}.restoring`
  rmSync(temp, { force: true })
  copyFileSync(sourceDb, temp)
  const db = new BunDatabase(temp)
  let sessions = 0
  try {
    db.exec('pragma journal_mode = DELETE')
    sessions = db.prepare('delete from session').run().changes
  } finally {
    db.close()
  }
  renameSync(temp, dbPath)
  let uploads = 0
  if (manifest) {
    for (const [rel, sum] of Object.entries(manifest.files)) {
      const to = join(dataDir, rel)
      mkdirSync(dirname(to), { recursive: true })
      copyFileSync(join(source, rel), to)
      if (sha256File(to) !== sum) throw new OpsError(`einlass: ${rel} was not copied intact (checksum differs)`)
      if (rel === 'secrets.json') chmodSync(to, 0o600)
      if (rel.startsWith('uploads/')) uploads++
    }
  }
  const parts = [`restored ${full ? 'the backup' : 'the database'} ${source} into ${dataDir}`, `${uploads} upload files`, `${sessions} logins ended`]
  if (manifest?.uploadsIn) parts.push(`the uploads are in ${manifest.uploadsIn} (not in the backup): keep EINLASS_STORAGE_URL pointing there`)
  if (movedTo) parts.push(`what was there is in ${movedTo}`)
  if (!full && !existsSync(join(dataDir, 'secrets.json'))) parts.push('no secrets.json: encrypted uploads and printed QR codes need the secrets.json of the backed-up install')
  return parts.join('; ')
}
