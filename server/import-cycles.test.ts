// The house stays easy to walk: no two modules import each other, directly or round a longer circle —
// also not for a type (the organiser's event page and its tabs once did, for EventFull). A dynamic
// import() is a chunk loaded later and does not count.
import { expect, test } from 'bun:test'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

function sources(): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'build' || name.startsWith('.')) continue
      const p = join(dir, name)
      if (statSync(p).isDirectory()) walk(p)
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p)
    }
  }
  for (const dir of ['server', 'ui', 'migrations', 'bench', 'scripts']) if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir))
  return out
}

/** static imports and re-exports, `import type` included; bare package names are not ours */
const IMPORT = /^\s*(?:import|export)\s[^'";]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && statSync(c).isFile()) return c
  return null
}

/** Tarjan's strongly connected components: every group of modules that reach each other */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

test('no import circles in server/, ui/, migrations/, bench/ and scripts/', () => {
  const graph = new Map<string, string[]>()
  const files = sources()
  for (const f of files) {
    const targets: string[] = []
    for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(f, m[1] ?? m[2])
      if (target) targets.push(target)
    }
    graph.set(f, targets)
  }
  expect(files.length).toBeGreaterThan(400)
  // the graph is read right: the event page imports its tabs
  expect(graph.get(join(ROOT, 'ui/apps/organiser/event-page.tsx'))).toContain(join(ROOT, 'ui/apps/organiser/tickets/index.tsx'))
  expect(circles(graph).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([])
})

test('the circle finder finds circles, long ones and a module importing itself', () => {
  const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges))
  expect(circles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([])
  expect(circles(g({ a: ['b'], b: ['a'] }))).toEqual([['a', 'b']])
  expect(circles(g({ a: ['b'], b: ['c'], c: ['d'], d: ['b'], e: ['e'] }))).toEqual([['b', 'c', 'd'], ['e']])
})
