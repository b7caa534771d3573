// Two einlass processes on one Postgres and one S3 bucket (s3rver), each with its own empty data dir
// (docs/operations.md "Several processes", "Storage"): a file uploaded through process 2 downloads
// through process 1, and neither keeps it in its data dir.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { postgresAvailable } from '../testing/harness'
import { startLocalS3 } from '../testing/s3rver'
import { processesOnPostgres } from '../testing/two-processes'

const s3 = postgresAvailable() ? await startLocalS3('einlass-cluster') : null
afterAll(() => s3?.close())

describe.if(postgresAvailable())('two processes on one Postgres share their uploads through one bucket', () => {
  const procs = processesOnPostgres(2, { env: s3?.env('uploads') ?? {} })

  test('an upload through process 2 downloads through process 1, byte for byte; no data dir holds it', async () => {
    const [p1, p2] = procs().all
    const admin = await procs().setupAgency('admin@zwei-eimer.example')
    const doc = new Uint8Array(256 * 1024)
    for (let i = 0; i < doc.length; i += 65536) doc.set(crypto.getRandomValues(new Uint8Array(65536)), i)
    const form = new FormData()
    form.append('file', new File([doc], 'Programm.pdf'))
    form.append('fileName', 'Programm.pdf')
    form.append('type', 'DYNAMIC_FILE')
    form.append('secure', 'true')
    const up = await fetch(`${p2.url}/proxy/api/asset`, { method: 'POST', headers: { cookie: admin }, body: form })
    expect(up.status).toBe(201)
    const { id } = (await up.json()) as { id: number }
    const key = (await procs().query('select storage_key from asset where id = $1', [id]))[0].storage_key as string
    expect(await s3!.client().exists(`uploads/${key}`)).toBe(true)
    const dl = await fetch(`${p1.url}/proxy/api/asset/${id}/download`, { headers: { cookie: admin } })
    expect(dl.status).toBe(200)
    expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(doc))).toBe(true)
    for (const p of procs().all) {
      const dir = join(p.dataDir, 'uploads')
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([])
    }
  }, 60_000)
})
