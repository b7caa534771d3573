// Debian's nginx with the admins' config (deploy/nginx/einlass.conf, only the ports replaced) in
// front of einlass processes, for the ops tests (nginx-storm, drain). Own prefix in a temp dir, a
// free port, `daemon off`; the access log names the process that served each request.
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './process'

export const NGINX = '/usr/sbin/nginx'
export const haveNginx = () => existsSync(NGINX)
export const NGINX_TEMPLATE = join(ROOT, 'deploy', 'nginx', 'einlass.conf')

/** The admin's config with the test's ports: `listen 80` → the proxy's port, 8081… → the processes' (unused lines dropped). */
export function nginxConfig(listen: number, upstreams: number[]): string {
  let n = 0
  const conf = readFileSync(NGINX_TEMPLATE, 'utf8')
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${listen};`)
    .replace(/^(\s*)server 127\.0\.0\.1:808(\d)(.*)\n/gm, (_, sp, d, rest) => (n++, Number(d) <= upstreams.length ? `${sp}server 127.0.0.1:${upstreams[Number(d) - 1]}${rest}\n` : ''))
  if (n < upstreams.length || !conf.includes(`listen 127.0.0.1:${listen};`)) throw new Error('deploy/nginx/einlass.conf no longer has the lines the test replaces')
  return conf
}

export interface Nginx {
  base: string
  dir: string
  /** the access log's lines: `status upstream method uri` */
  accessLog(): string[]
  stop(): Promise<void>
}

/** Starts nginx on `port` in front of `upstreams` and waits until /health answers through it. */
export async function startNginx(port: number, upstreams: number[]): Promise<Nginx> {
  const base = `http://127.0.0.1:${port}`
  const dir = mkdtempSync(join(tmpdir(), 'einlass-nginx-'))
  chmodSync(dir, 0o755) // the workers run as nobody when the test runs as root
  writeFileSync(join(dir, 'einlass.conf'), nginxConfig(port, upstreams))
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      "  log_format upstream '$status $upstream_addr $request_method $uri';",
      `  access_log ${dir}/access.log upstream;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t}_temp;`),
      `  include ${dir}/einlass.conf;`,
      '}',
    ].join('\n'),
  )
  const nginx: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const out: string[] = []
  nginx.stderr!.on('data', (d) => out.push(String(d)))
  const deadline = Date.now() + 10_000
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${out.join('')}`)
    const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${out.join('')}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    base,
    dir,
    accessLog: () => readFileSync(join(dir, 'access.log'), 'utf8').trim().split('\n'),
    async stop() {
      if (nginx.exitCode === null) {
        const gone = new Promise((r) => nginx.once('exit', r))
        nginx.kill('SIGQUIT')
        await gone
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
