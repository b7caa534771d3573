// `npm start` runs the server as a child of a shell that npm started: stopping npm (a process
// manager's SIGTERM, a closed terminal, SIGKILL) left the server running on its port. Started from
// an npm script, the server therefore watches its ancestors up to the npm process and shuts down
// when one of them is gone. Started any other way (binary, systemd, Docker) nothing is watched.
import { readFileSync } from 'node:fs'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Linux: the parent of a process, and whether its command line is npm's. */
function procInfo(pid: number): { ppid: number; npm: boolean } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
    return { ppid, npm: /(^|[\/\s])npm(-cli\.js)?(\s|$)/.test(cmd) || /npm-cli/.test(cmd) }
  } catch {
    return null
  }
}

/** The processes whose end ends the server: the parent, and on Linux every ancestor up to npm. */
export function watchedAncestors(start = process.ppid): number[] {
  const out: number[] = []
  let pid = start
  for (let i = 0; i < 4 && pid > 1; i++) {
    out.push(pid)
    const info = procInfo(pid)
    if (!info || info.npm) break
    pid = info.ppid
  }
  // without npm in the chain only the direct parent is watched
  return out.length > 1 && !procInfo(out[out.length - 1])?.npm ? out.slice(0, 1) : out
}

/** Calls `stop` once when a watched ancestor has ended; returns a function that stops watching. */
export function endWithParent(stop: (why: string) => void, opts: { env?: Record<string, string | undefined>; intervalMs?: number } = {}): () => void {
  const env = opts.env ?? process.env
  if (!env.npm_lifecycle_event) return () => {}
  const pids = watchedAncestors()
  if (!pids.length) return () => {}
  const timer = setInterval(() => {
    const gone = pids.find((p) => !alive(p)) ?? (process.ppid !== pids[0] ? pids[0] : undefined)
    if (gone !== undefined) {
      clearInterval(timer)
      stop(`parent ${gone} ended`)
    }
  }, opts.intervalMs ?? 1000)
  timer.unref?.()
  return () => clearInterval(timer)
}
