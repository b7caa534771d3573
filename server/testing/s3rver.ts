// A local S3-compatible server for tests (s3rver from npm, a devDependency): started on a free port
// with a bucket in a temp dir; stop() and start() again on the same port and folder simulate a
// bucket that goes away mid-run. What s3rver does not emulate: docs/dependencies.md.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

/** s3rver's only account; it checks the access key id, not the SigV4 signature (docs/dependencies.md) */
export const S3RVER_KEY = 'S3RVER'

export interface LocalS3 {
  endpoint: string
  bucket: string
  dir: string
  /** the settings einlass needs for this bucket with a key prefix */
  env(prefix?: string): Record<string, string>
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
  client(): Bun.S3Client
}

export async function startLocalS3(bucket = 'einlass-test'): Promise<LocalS3> {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-s3-'))
  let port = 0
  let server: S3rver | null = null
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] })
    const addr = (await server.run()) as unknown as { port: number }
    port = addr.port
  }
  await start()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    dir,
    env: (prefix = 'uploads') => ({
      EINLASS_STORAGE_URL: `s3://${bucket}/${prefix}`,
      EINLASS_S3_ENDPOINT: endpoint,
      EINLASS_S3_REGION: 'us-east-1',
      EINLASS_S3_ACCESS_KEY_ID: S3RVER_KEY,
      EINLASS_S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    }),
    async stop() {
      await server?.close()
      server = null
    },
    start,
    async close() {
      await server?.close()
      server = null
      rmSync(dir, { recursive: true, force: true })
    },
    client: () => new Bun.S3Client({ endpoint, bucket, accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY, region: 'us-east-1' }),
  }
}
