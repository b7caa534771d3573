// S3 storage from the command line, against s3rver started here: a bucket that refuses the keys or
// cannot be reached stops `einlass serve` with one line; `einlass storage migrate` copies uploads
// into the bucket and back, verified and resumable; `einlass backup DIR` with S3 storage names the
// bucket instead of copying it (docs/operations.md "Storage").
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SOURCE_COMMAND, freePort, startServerProcess } from '../testing/process'
import { startLocalS3 } from '../testing/s3rver'

setDefaultTimeout(90_000)
const s3 = await startLocalS3()
const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'einlass-storage-'))
  dirs.push(d)
  return d
}
afterAll(async () => {
  await s3.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const lines = (s: string) => s.trim().split('\n').filter(Boolean)

/** one einlass command from source, asynchronously (s3rver runs in this process and must keep answering) */
function cli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(SOURCE_COMMAND[0], [...SOURCE_COMMAND.slice(1), ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', EINLASS_LOG_LEVEL: 'error', ...env } })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs)
    p.stdout.on('data', (d) => (stdout += d))
    p.stderr.on('data', (d) => (stderr += d))
    p.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

describe('einlass serve with S3 storage', () => {
  test('wrong credentials: one line naming the bucket and the refusal, exit code 1, nothing served', async () => {
    const port = await freePort()
    const r = await cli(['serve'], { ...s3.env('start'), EINLASS_S3_ACCESS_KEY_ID: 'NOT-A-KEY', EINLASS_DATA_DIR: tmp(), PORT: String(port), EINLASS_HOST: '127.0.0.1' })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr.trim()).toMatch(/^einlass: storage error: s3:\/\/einlass-test\/start\/: the start-up check \(write, read, delete of a probe object\) failed: InvalidAccessKeyId: /)
  })

  test('with the right keys it starts, names the bucket, and an upload through the server lands there and comes back', async () => {
    const s = await startServerProcess({ env: { ...s3.env('served'), EINLASS_LOG_LEVEL: 'info' }, readyTimeoutMs: 90_000 })
    try {
      expect(s.records().find((r) => r.msg === 'einlass ready')?.storage).toBe('s3://einlass-test/served/')
      const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { method: 'POST', headers: { origin: s.url, ...headers }, body })
      const setup = await post('/proxy/api/setup', JSON.stringify({ agencyName: 'Bucket GmbH', email: 'b@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' }), { 'content-type': 'application/json' })
      expect(setup.status).toBeLessThan(300)
      const cookie = setup.headers.getSetCookie()[0].split(';')[0]
      const text = `Programm des Abends\n${'x'.repeat(5000)}\n`
      const form = new FormData()
      form.append('file', new File([text], 'programm.txt', { type: 'text/plain' }))
      form.append('fileName', 'programm.txt')
      const up = await post('/proxy/api/asset', form, { cookie })
      expect(up.status).toBe(201)
      const { id } = await up.json()
      const listed = await s3.client().list({ prefix: 'served/' })
      expect(listed.contents?.map((o) => o.key).filter((k) => !k.includes('.probe'))).toHaveLength(1)
      const dl = await fetch(`${s.url}/proxy/api/asset/${id}/download`, { headers: { cookie } })
      expect(dl.status).toBe(200)
      expect(await dl.text()).toBe(text)
    } finally {
      await s.stop()
    }
  })

  test('the endpoint unreachable at start: the same one line', async () => {
    const closed = await freePort()
    const r = await cli(['serve'], { ...s3.env('start'), EINLASS_S3_ENDPOINT: `http://127.0.0.1:${closed}`, EINLASS_DATA_DIR: tmp(), PORT: String(await freePort()), EINLASS_HOST: '127.0.0.1' })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr).toStartWith('einlass: storage error: s3://einlass-test/start/: the start-up check')
  })

  test('a storage URL that is neither file: nor s3:// is a configuration error', async () => {
    const r = await cli(['serve'], { EINLASS_STORAGE_URL: 'gs://bucket', EINLASS_DATA_DIR: tmp() })
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe('einlass: configuration error: EINLASS_STORAGE_URL: unsupported scheme "gs" (use file: or s3://bucket/prefix)')
  })
})

describe('einlass storage migrate', () => {
  test('--to s3 copies every upload verified, a second run skips them, a damaged or missing object is copied again; --to file brings them back', async () => {
    const data = tmp()
    mkdirSync(join(data, 'uploads'))
    const files: Record<string, Uint8Array> = {}
    for (const [name, size] of [['a1.pdf.enc', 5000], ['b2.jpg.enc', 200_000], ['b2.jpg.enc.400', 3000], ['c3.txt', 12 * 1024 * 1024]] as const) {
      const bytes = new Uint8Array(size)
      for (let i = 0; i < size; i += 65536) bytes.set(crypto.getRandomValues(new Uint8Array(Math.min(65536, size - i))), i)
      files[name] = bytes
      writeFileSync(join(data, 'uploads', name), bytes)
    }
    const env = { ...s3.env('migrated'), EINLASS_DATA_DIR: data }
    const first = await cli(['storage', 'migrate', '--to', 's3'], env)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('storage migrate: 4 objects copied')
    expect(first.stdout).toContain(', 0 already there and verified')
    const bucket = s3.client()
    for (const [name, bytes] of Object.entries(files)) expect(sha(new Uint8Array(await bucket.file(`migrated/${name}`).arrayBuffer()))).toBe(sha(bytes))

    const again = await cli(['storage', 'migrate', '--to', 's3'], env)
    expect(again.stdout).toContain('storage migrate: 0 objects copied (0 bytes), 4 already there and verified')

    // a run that broke off, an object altered in the bucket: both are found and put right
    await bucket.write('migrated/a1.pdf.enc', new Uint8Array(5000))
    await bucket.delete('migrated/b2.jpg.enc.400')
    const resumed = await cli(['storage', 'migrate', '--to', 's3'], env)
    expect(resumed.stderr).toBe('')
    expect(resumed.stdout).toContain('storage migrate: 2 objects copied (8000 bytes), 2 already there and verified')
    expect(sha(new Uint8Array(await bucket.file('migrated/a1.pdf.enc').arrayBuffer()))).toBe(sha(files['a1.pdf.enc']))

    const back = tmp()
    const down = await cli(['storage', 'migrate', '--to', 'file'], { ...env, EINLASS_DATA_DIR: back })
    expect(down.code).toBe(0)
    expect(down.stdout).toContain('storage migrate: 4 objects copied')
    expect(readdirSync(join(back, 'uploads')).sort()).toEqual(Object.keys(files).sort())
    for (const [name, bytes] of Object.entries(files)) expect(sha(readFileSync(join(back, 'uploads', name)))).toBe(sha(bytes))
  }, 180_000)

  test('without a bucket configured, or without --to, it says how to call it', async () => {
    const noBucket = await cli(['storage', 'migrate', '--to', 's3'], { EINLASS_DATA_DIR: tmp() })
    expect(noBucket.code).toBe(2)
    expect(noBucket.stderr.trim()).toBe('einlass: storage migrate needs the bucket in EINLASS_STORAGE_URL (s3://bucket/prefix); it is file:')
    const noTo = await cli(['storage', 'migrate'], { ...s3.env('x'), EINLASS_DATA_DIR: tmp() })
    expect(noTo.code).toBe(2)
    expect(noTo.stderr.trim()).toBe('einlass: usage: einlass storage migrate --to s3|file')
  })
})

describe('einlass backup DIR with S3 storage', () => {
  test('backs up database and secrets, names the bucket for the uploads; restore says where they are', async () => {
    const data = tmp()
    const env = { ...s3.env('backed'), EINLASS_DATA_DIR: data }
    expect((await cli(['migrate'], env)).code).toBe(0)
    writeFileSync(join(data, 'secrets.json'), JSON.stringify({ uploadKey: Buffer.alloc(32, 1).toString('base64'), signingKey: Buffer.alloc(32, 2).toString('base64') }))
    const out = join(tmp(), 'backup')
    const r = await cli(['backup', out], env)
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(`backup written to ${out} (database, secrets; the uploads are in s3://einlass-test/backed/: back that bucket up by its own means, see docs/operations.md "Storage")`)
    expect(existsSync(join(out, 'uploads'))).toBe(false)
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ uploadsIn: 's3://einlass-test/backed/', missingUploads: 0 })
    const restored = await cli(['restore', out], { ...env, EINLASS_DATA_DIR: tmp() })
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain('the uploads are in s3://einlass-test/backed/ (not in the backup): keep EINLASS_STORAGE_URL pointing there')
  })
})
