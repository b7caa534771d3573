// The container (issue 22 "The container"): the image built and run with Debian's docker engine.
// No image registry is reachable here, so the test builds its image FROM scratch out of what this
// machine has — the compiled binary, the C library it links against, /tmp, time zones and CA
// certificates — with the very lines of the users' Dockerfile that give its layout, user, volume,
// environment, health check and entrypoint (copied from it, so both cannot drift apart). Proven: it
// starts as non-root, /health and the HEALTHCHECK answer, the data survives `docker rm` and a new
// container on the same volume, SIGTERM drains, and a read-only root filesystem works.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BINARY, expect, freePort, PASSWORD, test } from './fixtures'

const here = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(here, '..')
const IMAGE = `einlass-test:${process.pid}`
const VOLUME = `einlass-test-data-${process.pid}`

const docker = (...args: string[]) => spawnSync('docker', args, { encoding: 'utf8', timeout: 120_000 })
const ok = (...args: string[]) => {
  const r = docker(...args)
  if (r.status !== 0) throw new Error(`docker ${args.join(' ')}: ${r.stderr || r.stdout}`)
  return r.stdout.trim()
}

/** dockerd, started here when none runs (and stopped again after the test) */
async function ensureDocker(): Promise<(() => Promise<void>) | null> {
  if (docker('info').status === 0) return null
  // its log beside the other artefacts, for a look when it does not start
  const log = openSync(join(here, '.artifacts', 'dockerd.log'), 'a')
  const p = spawn('dockerd', [], { stdio: ['ignore', log, log], detached: true, env: { ...process.env } })
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 250))
    if (docker('info').status === 0)
      return async () => {
        const exited = new Promise((r) => p.once('exit', r))
        p.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))])
      }
  }
  throw new Error('dockerd did not start')
}

/** the final stage of the users' Dockerfile, with its base and COPY lines replaced */
function testDockerfile(): string {
  const users = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  const final = users.split(/^FROM /m).pop()!
  const kept = final
    .split('\n')
    .slice(1) // its public base image
    .filter((l) => !l.startsWith('COPY '))
    .join('\n')
  return `FROM scratch\nCOPY rootfs/ /\nCOPY --chown=65532:65532 data/ /data/\n${kept}`
}

/** binary + C library + /tmp + zoneinfo + CA certificates + a passwd naming the non-root user */
function buildContext(): string {
  const ctx = mkdtempSync(join(tmpdir(), 'einlass-image-'))
  const root = join(ctx, 'rootfs')
  const put = (from: string, to = from) => {
    mkdirSync(dirname(join(root, to)), { recursive: true })
    copyFileSync(from, join(root, to))
  }
  put(BINARY, '/usr/local/bin/einlass')
  const libs = execFileSync('ldd', [BINARY], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /(\/\S+)\s+\(0x/.exec(l)?.[1])
    .filter((p): p is string => Boolean(p))
  for (const lib of libs) put(lib)
  mkdirSync(join(root, 'tmp'), { recursive: true })
  cpSync('/usr/share/zoneinfo', join(root, 'usr/share/zoneinfo'), { recursive: true, dereference: true })
  put('/etc/ssl/certs/ca-certificates.crt')
  mkdirSync(join(root, 'etc'), { recursive: true })
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n')
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnonroot:x:65532:\n')
  mkdirSync(join(ctx, 'data'))
  writeFileSync(join(ctx, 'Dockerfile'), testDockerfile())
  return ctx
}

async function waitFor(url: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  for (;;) {
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    if (Date.now() > end) throw new Error(`${url} did not answer`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

test('the image: non-root, health, data kept across containers, SIGTERM drains, read-only root', async () => {
  test.setTimeout(300_000)
  const stopDocker = await ensureDocker()
  const ctx = buildContext()
  const containers: string[] = []
  try {
    // the structure both Dockerfiles share
    const df = readFileSync(join(ctx, 'Dockerfile'), 'utf8')
    for (const line of ['USER 65532:65532', 'VOLUME ["/data"]', 'ENTRYPOINT ["/usr/local/bin/einlass"]', 'CMD ["serve"]', 'EXPOSE 3000']) expect(df).toContain(line)
    ok('build', '-q', '-t', IMAGE, ctx)
    const cfg = JSON.parse(ok('image', 'inspect', IMAGE))[0].Config
    expect(cfg.User).toBe('65532:65532')
    expect(cfg.Entrypoint).toEqual(['/usr/local/bin/einlass'])
    expect(cfg.Healthcheck.Test).toEqual(['CMD', '/usr/local/bin/einlass', 'health'])
    expect(Object.keys(cfg.Volumes)).toEqual(['/data'])

    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const run = (name: string) => {
      containers.push(name)
      // a read-only root with /tmp as tmpfs; the health check every second so the test sees it
      return ok('run', '-d', '--name', name, '--read-only', '--tmpfs', '/tmp', '-p', `127.0.0.1:${port}:3000`, '-v', `${VOLUME}:/data`, '-e', `EINLASS_BASE_URL=${url}`, '--health-interval=1s', '--health-start-period=1s', IMAGE)
    }
    const first = `einlass-test-1-${process.pid}`
    run(first)
    await waitFor(`${url}/health`)
    // runs as the non-root user (uid 65532), never root
    const top = ok('top', first, '-eo', 'pid,uid,comm')
    expect(top).toMatch(/\s65532\s+einlass/)
    expect(top).not.toMatch(/\s0\s+einlass/)
    // the image's own HEALTHCHECK (the binary asking itself) turns healthy
    await expect.poll(() => ok('inspect', '--format', '{{.State.Health.Status}}', first), { timeout: 30_000 }).toBe('healthy')
    // create the agency; it lives in the volume
    const setup = await fetch(`${url}/proxy/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ agencyName: 'Container GmbH', email: 'c@example.org', password: PASSWORD, firstName: 'C', lastName: 'C' }) })
    expect(setup.status).toBeLessThan(300)

    // SIGTERM drains and exits 0 (docker stop sends SIGTERM, SIGKILL only after 10 s)
    const t0 = Date.now()
    ok('stop', first)
    expect(Date.now() - t0).toBeLessThan(10_000)
    expect(ok('inspect', '--format', '{{.State.ExitCode}}', first)).toBe('0')
    expect(ok('logs', first)).toContain('"stopped"')
    ok('rm', first)

    // a new container on the same volume finds the agency: the login works, setup is done
    const second = `einlass-test-2-${process.pid}`
    run(second)
    await waitFor(`${url}/health`)
    const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ email: 'c@example.org', password: PASSWORD }) })
    expect(login.status).toBe(200)
    const again = await fetch(`${url}/proxy/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ agencyName: 'Zweite', email: 'd@example.org', password: PASSWORD, firstName: 'D', lastName: 'D' }) })
    expect(again.status).toBeGreaterThanOrEqual(400)
  } finally {
    for (const c of containers) docker('rm', '-f', c)
    docker('volume', 'rm', '-f', VOLUME)
    docker('image', 'rm', '-f', IMAGE)
    rmSync(ctx, { recursive: true, force: true })
    await stopDocker?.()
  }
})
