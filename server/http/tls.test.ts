// With a certificate and key configured, Bun serves HTTPS itself: checked against a real process
// with a self-signed pair made by openssl for this test.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess, startServerProcess } from '../testing/process'
import { patientTests } from '../testing/harness'

patientTests()

const insecure = { tls: { rejectUnauthorized: false } } as RequestInit

describe('HTTPS served by einlass itself', () => {
  let dir: string
  let server: ServerProcess
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'einlass-tls-'))
    const r = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { encoding: 'utf8' })
    expect(r.status).toBe(0)
    server = await startServerProcess({
      https: true,
      env: { EINLASS_TLS_CERT: join(dir, 'cert.pem'), EINLASS_TLS_KEY: join(dir, 'key.pem') },
    })
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('answers over TLS with HSTS, and plain HTTP on the same port is not served', async () => {
    const r = await fetch(`${server.url}/health`, insecure)
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ status: 'ok' })
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    const plain = await fetch(`http://127.0.0.1:${server.port}/health`).then(
      (x) => x.status,
      () => 'refused',
    )
    expect(plain).not.toBe(200)
  })

  test('the session cookie is Secure, HttpOnly and SameSite under HTTPS', async () => {
    const r = await fetch(`${server.url}/proxy/api/setup`, {
      ...insecure,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ agencyName: 'TLS Agentur', email: 'tls@example.org', password: 'Geheim123!', firstName: 'Tina', lastName: 'Tls' }),
    })
    expect(r.status).toBe(200)
    const cookie = r.headers.getSetCookie().join('\n')
    expect(cookie).toContain('; Secure')
    expect(cookie).toContain('; HttpOnly')
    expect(cookie).toContain('; SameSite=Lax')
  })

  test('einlass health speaks HTTPS when TLS is configured', async () => {
    const { runCli } = await import('../testing/process')
    const r = runCli(['health'], { env: { PORT: String(server.port), EINLASS_DATA_DIR: server.dataDir, EINLASS_TLS_CERT: join(dir, 'cert.pem'), EINLASS_TLS_KEY: join(dir, 'key.pem') } })
    expect(r.stdout.trim()).toBe(`healthy: https://127.0.0.1:${server.port}/health`)
    expect(r.code).toBe(0)
  })
})
