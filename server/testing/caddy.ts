// Debian's caddy with the admins' Caddyfile (deploy/caddy/Caddyfile: the site address and the ports
// replaced, plus a global block without admin endpoint and automatic HTTPS) in front of einlass
// processes, for the ops tests (drain). Own config and data dirs in a temp dir, a free port.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './process'

export const CADDY = '/usr/bin/caddy'
export const haveCaddy = () => existsSync(CADDY)
export const CADDYFILE = join(ROOT, 'deploy', 'caddy', 'Caddyfile')

/** The admin's Caddyfile with the test's address and ports (unused upstreams dropped). */
export function caddyConfig(listen: number, upstreams: number[]): string {
  const text = readFileSync(CADDYFILE, 'utf8')
  const site = text.replace(/^tickets\.example\.org \{/m, `http://127.0.0.1:${listen} {`)
  const m = /reverse_proxy ((?:127\.0\.0\.1:808\d ?)+) \{/.exec(site)
  if (site === text || !m) throw new Error('deploy/caddy/Caddyfile no longer has the lines the test replaces')
  return ['{', '\tadmin off', '\tauto_https off', '}', '', site.replace(m[1], upstreams.map((p) => `127.0.0.1:${p}`).join(' '))].join('\n')
}

export interface Caddy {
  base: string
  stop(): Promise<void>
}

export async function startCaddy(port: number, upstreams: number[]): Promise<Caddy> {
  const base = `http://127.0.0.1:${port}`
  const dir = mkdtempSync(join(tmpdir(), 'einlass-caddy-'))
  writeFileSync(join(dir, 'Caddyfile'), caddyConfig(port, upstreams))
  const caddy: ChildProcess = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
  })
  const out: string[] = []
  caddy.stderr!.on('data', (d) => out.push(String(d)))
  caddy.stdout!.on('data', (d) => out.push(String(d)))
  const deadline = Date.now() + 10_000
  for (;;) {
    if (caddy.exitCode !== null) throw new Error(`caddy exited: ${out.join('')}`)
    const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() > deadline) throw new Error(`caddy did not answer: ${out.join('')}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    base,
    async stop() {
      if (caddy.exitCode === null) {
        const gone = new Promise((r) => caddy.once('exit', r))
        caddy.kill('SIGTERM')
        await gone
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
