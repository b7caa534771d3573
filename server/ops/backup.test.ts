// Backup → restore round trip (issue 22): a full backup taken while registrations keep coming in,
// restored into an empty data dir, served again: every row and every upload identical (checksums),
// the secrets kept, every login ended; the refusals of a restore that would overwrite or that reads a
// damaged backup.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SOURCE_COMMAND, type ServerProcess, runCli, startServerProcess } from '../testing/process'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'einlass-restore-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex')
const lines = (s: string) => s.trim().split('\n').filter(Boolean)

/** every table's rows (but the sessions) in a stable order, one checksum each */
function tableSums(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true })
  try {
    const tables = (db.query("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as Array<{ name: string }>).map((t) => t.name)
    const out: Record<string, string> = {}
    for (const t of tables) if (t !== 'session') out[t] = sha(JSON.stringify(db.query(`select * from "${t}" order by rowid`).all()))
    return out
  } finally {
    db.close()
  }
}

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(SOURCE_COMMAND[0], [...SOURCE_COMMAND.slice(1), ...args], { env: { PATH: process.env.PATH ?? '', ...env } })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d) => (stdout += d))
    p.stderr.on('data', (d) => (stderr += d))
    p.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('einlass backup DIR → einlass restore (SQLite)', () => {
  let source: ServerProcess | null = null
  let restored: ServerProcess | null = null
  afterAll(async () => {
    await source?.stop()
    await restored?.stop()
  })

  test('round trip under writes: rows, uploads and secrets identical, logins ended, the restored install serves', async () => {
    source = await startServerProcess({ cleanup: false })
    const s = source
    dirs.push(s.dataDir)
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: s.url, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
    const setup = await post('/proxy/api/setup', { agencyName: 'Restore GmbH', email: 'r@example.org', password: 'Geheim123!', firstName: 'R', lastName: 'R' })
    expect(setup.status).toBeLessThan(300)
    const cookie = setup.headers.getSetCookie()[0].split(';')[0]
    const start = new Date(Date.now() + 7 * 86400_000)
    const ev = await post('/proxy/api/events', { displayName: 'Wiederherstellfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Saal', maxVisitors: 10_000 }, cookie)
    expect(ev.status).toBe(201)
    const eventId = (await ev.json()).id
    // an upload, stored encrypted with the install's key
    const bytes = new TextEncoder().encode(`Programm des Abends\n${'x'.repeat(5000)}\n`)
    const form = new FormData()
    form.append('file', new File([bytes], 'programm.txt', { type: 'text/plain' }))
    form.append('type', 'DYNAMIC_FILE')
    const up = await fetch(`${s.url}/proxy/api/asset`, { method: 'POST', headers: { origin: s.url, cookie }, body: form })
    expect(up.status).toBe(201)
    const assetId = (await up.json()).id
    const register = (i: number) => post(`/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'G', lastName: `Gast ${i}`, email: `gast${i}@example.org` })
    for (let i = 0; i < 20; i++) expect((await register(i)).status).toBe(201)

    // a storm of registrations while the backup runs
    let writing = true
    let n = 20
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) await register(n++)
    })
    await new Promise((r) => setTimeout(r, 100))
    const backupDir = join(tmp(), 'einlass-backup')
    const b = await cli(['backup', backupDir], { EINLASS_DATA_DIR: s.dataDir })
    writing = false
    await Promise.all(writers)
    expect(b.stderr).toBe('')
    expect(b.code).toBe(0)
    expect(b.stdout).toStartWith(`backup written to ${backupDir} (database, secrets, `)
    expect(n).toBeGreaterThan(20)
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ format: 'einlass-backup', version: 1, missingUploads: 0 })
    expect(Object.keys(manifest.files)).toContain('secrets.json')
    expect(Object.keys(manifest.files).some((f) => f.startsWith('uploads/'))).toBe(true)
    const backupSums = tableSums(join(backupDir, 'einlass.sqlite'))
    const inBackup = (new Database(join(backupDir, 'einlass.sqlite'), { readonly: true }).query('select count(*) as n from event_visitor').get() as { n: number }).n
    expect(inBackup).toBeGreaterThanOrEqual(20)
    await s.stop()
    source = null

    // into an empty data dir
    const target = tmp()
    const r = runCli(['restore', backupDir], { env: { EINLASS_DATA_DIR: target } })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`restored the backup ${backupDir} into ${target}`)
    expect(r.stdout).toMatch(/[1-9]\d* logins ended/)
    // every row identical (the sessions excepted: they are gone), the secrets and every upload too
    expect(tableSums(join(target, 'einlass.sqlite'))).toEqual(backupSums)
    const restoredDb = new Database(join(target, 'einlass.sqlite'), { readonly: true })
    expect((restoredDb.query('select count(*) as n from session').get() as { n: number }).n).toBe(0)
    restoredDb.close()
    expect(sha(readFileSync(join(target, 'secrets.json')))).toBe(sha(readFileSync(join(s.dataDir, 'secrets.json'))))
    for (const f of readdirSync(join(s.dataDir, 'uploads'))) expect(sha(readFileSync(join(target, 'uploads', f)))).toBe(sha(readFileSync(join(s.dataDir, 'uploads', f))))

    // the restored install serves: the old login is gone, a new one works, the upload decrypts
    restored = await startServerProcess({ dataDir: target, cleanup: false })
    const t = restored
    const stale = await fetch(`${t.url}/proxy/api/events/${eventId}`, { headers: { cookie } })
    expect(stale.status).toBe(401)
    const login = await fetch(`${t.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ email: 'r@example.org', password: 'Geheim123!' }) })
    expect(login.status).toBe(200)
    const fresh = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const event = await fetch(`${t.url}/proxy/api/events/${eventId}`, { headers: { cookie: fresh } })
    expect(event.status).toBe(200)
    expect((await event.json()).displayName).toBe('Wiederherstellfest')
    const download = await fetch(`${t.url}/proxy/api/asset/${assetId}/download`, { headers: { cookie: fresh } })
    expect(download.status).toBe(200)
    expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(bytes))
    await t.stop()
    restored = null

    // a data dir with an install: refused without --force; with it, moved aside (nothing deleted)
    const again = runCli(['restore', backupDir], { env: { EINLASS_DATA_DIR: target } })
    expect(again.code).toBe(1)
    expect(lines(again.stderr)).toEqual([`einlass: ${target} holds an install (einlass.sqlite, secrets.json, uploads); restore into an empty data dir, or add --force to move it aside first`])
    const forced = runCli(['restore', '--force', backupDir], { env: { EINLASS_DATA_DIR: target } })
    expect(forced.stderr).toBe('')
    expect(forced.code).toBe(0)
    const aside = readdirSync(target).find((f) => f.startsWith('before-restore-'))!
    expect(existsSync(join(target, aside, 'einlass.sqlite'))).toBe(true)
    expect(tableSums(join(target, 'einlass.sqlite'))).toEqual(backupSums)

    // a damaged backup is refused before anything changes
    const upload = Object.keys(manifest.files).find((f) => f.startsWith('uploads/'))!
    writeFileSync(join(backupDir, upload), 'tampered')
    const empty = tmp()
    const damaged = runCli(['restore', backupDir], { env: { EINLASS_DATA_DIR: empty } })
    expect(damaged.code).toBe(1)
    expect(lines(damaged.stderr)).toEqual([`einlass: the backup is damaged: ${upload} is missing or differs from its checksum`])
    expect(readdirSync(empty)).toEqual([])
  }, 120_000)

  test('Postgres: restore says to use pg_restore; a missing backup is named', () => {
    const pgr = runCli(['restore', '/tmp/x.dump'], { env: { EINLASS_DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@127.0.0.1:5432/einlass' } })
    expect(pgr.code).toBe(1)
    expect(lines(pgr.stderr)[0]).toStartWith('einlass: the database is Postgres; restore it with pg_restore')
    const none = runCli(['restore', '/tmp/nothing-here-einlass'], { env: { EINLASS_DATA_DIR: tmp() } })
    expect(none.code).toBe(1)
    expect(lines(none.stderr)).toEqual(['einlass: no backup at /tmp/nothing-here-einlass'])
  })
})
