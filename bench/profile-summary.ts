// Summarises a V8 .cpuprofile (bun --cpu-prof; bench/organiser-lib.ts writes one with PROFILE_DIR=dir):
// self time and inclusive time per function (name, file:line), the heaviest first.
//   PROFILE_DIR=/tmp/prof node_modules/.bin/bun bench/ticket-orders.ts
//   node_modules/.bin/bun bench/profile-summary.ts /tmp/prof/*.cpuprofile [TOP=40]
import { readFileSync } from 'node:fs'

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const file = process.argv[2]
if (!file) throw new Error('usage: bun bench/profile-summary.ts FILE.cpuprofile [TOP]')
const top = Number(process.argv[3] ?? 40)
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const key = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(server|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
const self = new Map<string, number>()
const incl = new Map<string, number>()
let total = 0
p.samples.forEach((id, i) => {
  const dt = p.timeDeltas[i] ?? 0
  total += dt
  const n = byId.get(id)!
  self.set(key(n), (self.get(key(n)) ?? 0) + dt)
  // inclusive: every distinct function on the stack once
  const seen = new Set<string>()
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur)!)
    if (seen.has(k)) continue
    seen.add(k)
    incl.set(k, (incl.get(k) ?? 0) + dt)
  }
})
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`)
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`)
}
show('self time', self)
show('inclusive time', incl)
