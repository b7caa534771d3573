// `npm start`'s server ends with npm: a server started from an npm script (npm_lifecycle_event set)
// whose parent goes away shuts down instead of keeping the port (issue 10, README).
import { expect, test } from 'bun:test'
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const LIFECYCLE = resolve(import.meta.dir, 'lifecycle.ts')

function child(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-lifecycle-'))
  const script = join(dir, 'child.ts')
  writeFileSync(
    script,
    `import { endWithParent } from ${JSON.stringify(LIFECYCLE)}
endWithParent((why) => { console.log('stopping: ' + why); process.exit(0) }, { intervalMs: 100 })
console.log('child ' + process.pid)
setInterval(() => {}, 1000)
`,
  )
  // a shell in between, as npm runs scripts; the shell waits for the server like "a && b" does
  const sh = spawn('sh', ['-c', `${process.execPath} ${script}; true`], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise<{ sh: typeof sh; pid: number; out: () => string }>((res) => {
    let out = ''
    sh.stdout!.on('data', (d) => {
      out += String(d)
      const m = /child (\d+)/.exec(out)
      if (m) res({ sh, pid: Number(m[1]), out: () => out })
    })
  })
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function gone(pid: number, ms: number) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (!alive(pid)) return true
    await Bun.sleep(50)
  }
  return false
}

test('started by an npm script: the server ends when its parent is killed', async () => {
  const c = await child({ npm_lifecycle_event: 'start' })
  c.sh.kill('SIGKILL')
  expect(await gone(c.pid, 5000)).toBe(true)
})

test('started otherwise: nothing is watched (a supervisor may restart its parent)', async () => {
  const env = { npm_lifecycle_event: '' }
  const c = await child(env)
  c.sh.kill('SIGKILL')
  await Bun.sleep(600)
  const still = alive(c.pid)
  process.kill(c.pid, 'SIGKILL')
  expect(still).toBe(true)
})
