// What the repository promises outside the code: the Dockerfile builds like the README, CI runs
// the README's test command, every setting and dependency is documented.
import { describe, expect, test } from 'bun:test'
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pkg from '../package.json'
import { SETTINGS } from './config/config'

const ROOT = resolve(import.meta.dir, '..')
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8')

describe('Dockerfile', () => {
  const docker = read('Dockerfile')
  const stages = docker.split(/^FROM /m).slice(1)

  test('multi-stage: the build stage runs exactly npm ci and npm run build', () => {
    expect(stages.length).toBe(2)
    const runs = [...stages[0].matchAll(/^RUN (.+(?:\\\n.+)*)/gm)].map((m) => m[1].replace(/\\\n\s*/g, ' '))
    expect(runs[0]).toStartWith('npm ci')
    expect(runs[1]).toStartWith('npm run build')
    expect(pkg.scripts.build).toBe('bun build.ts')
    expect(read('README.md')).toContain('npm run build')
  })

  test('the final image holds only the binary, runs as non-root, with /data and a health check', () => {
    const final = stages[1]
    const copies = [...final.matchAll(/^COPY (.+)$/gm)].map((m) => m[1])
    expect(copies).toEqual(['--from=build /out/einlass /usr/local/bin/einlass', '--from=build --chown=65532:65532 /out/data /data'])
    expect(final).not.toMatch(/^RUN /m)
    const user = /^USER (\S+)/m.exec(final)?.[1]
    expect(user).toBeDefined()
    expect(user).not.toMatch(/^(root|0)(:|$)/)
    expect(final).toMatch(/^VOLUME \["\/data"\]$/m)
    expect(final).toContain('EINLASS_DATA_DIR=/data')
    expect(final).toMatch(/^HEALTHCHECK .*CMD \["\/usr\/local\/bin\/einlass", "health"\]$/m)
  })

  test('.dockerignore keeps dependencies and build output out of the context', () => {
    const ignore = read('.dockerignore').split('\n')
    for (const p of ['node_modules', 'dist', 'data', '.git', 'ui/build', 'e2e/.artifacts']) expect(ignore).toContain(p)
  })
})

describe('CI and the README', () => {
  test('.ci/run runs npm ci and exactly the README’s test command', () => {
    const ci = read('.ci/run')
    expect(ci).toContain('npm ci')
    expect(ci).toMatch(/^npm test$/m)
    expect(read('README.md')).toMatch(/^npm test\s+#/m)
    // the Debian tools the tests read their output back with come first, then both halves
    expect(pkg.scripts.test).toStartWith('sh scripts/ensure-test-tools.sh && bun test')
    expect(pkg.scripts.test).toContain('npm run test:e2e')
  })

  test('the README’s settings table names every setting with its environment variable and flag', () => {
    const readme = read('README.md')
    for (const s of SETTINGS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${s.env}\` |`))
      expect(row, s.env).toBeDefined()
      expect(row).toContain(`\`${s.flag}\``)
      expect(row).toContain(`\`${s.key}\``)
    }
  })

  test('every dependency has its section in docs/dependencies.md', () => {
    const doc = read('docs/dependencies.md')
    const headings = doc.split('\n').filter((l) => l.startsWith('### ')).flatMap((l) => l.slice(4).split(',').map((x) => x.trim()))
    const all = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]
    expect(all.filter((d) => !headings.includes(d))).toEqual([])
  })

  test('npm test runs the performance guard in its short form after the bun suite, before the journeys (issue 25)', () => {
    expect(pkg.scripts['bench:guard']).toBe('bun bench/guard.ts')
    const t: string = pkg.scripts.test
    const suite = t.indexOf('bun test')
    const guard = t.indexOf('bun bench/guard.ts --short')
    expect(guard).toBeGreaterThan(suite)
    expect(t.indexOf('npm run test:e2e')).toBeGreaterThan(guard)
    expect(read('docs/benchmarks.md')).toContain('npm run bench:guard')
  })

  test('docs/benchmarks.md gives the command it measured with', () => {
    expect(read('docs/benchmarks.md')).toContain('npm run bench')
    expect(pkg.scripts.bench).toBe('bun bench/run.ts')
  })
})

describe('UI styles', () => {
  // Each area's stylesheet (ui/styles/<area>.css) may only style its own classes: a class that one
  // area's rules start with belongs to that area, and no other area's rule may mention it. Shared
  // classes (layout, buttons, fields, the PublicFrame …) live in base.css.
  const dir = join(ROOT, 'ui/styles')
  const selectorsOf = (css: string) =>
    [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{[^{}]*\}/g)].flatMap((m) =>
      m[1]
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('@')),
    )
  const classesIn = (s: string) => s.match(/\.[a-zA-Z][\w-]*/g) ?? []

  test('no class is styled by two areas', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.css'))
    const base = new Set(selectorsOf(read('ui/styles/base.css')).flatMap(classesIn))
    const owners = new Map<string, Set<string>>()
    const users = new Map<string, Set<string>>()
    const note = (m: Map<string, Set<string>>, c: string, f: string) => (m.get(c) ?? m.set(c, new Set()).get(c)!).add(f)
    for (const f of files.filter((x) => x !== 'base.css')) {
      for (const sel of selectorsOf(read(`ui/styles/${f}`))) {
        const first = sel.replace(/^(html|body)(\[[^\]]*\])?\s+/, '').split(/[\s>+~]+/)[0]
        const own = classesIn(first).find((c) => !base.has(c))
        if (own) note(owners, own, f)
        for (const c of classesIn(sel)) if (!base.has(c)) note(users, c, f)
      }
    }
    const clashes = [...owners].flatMap(([c, fs]) => {
      const others = [...(users.get(c) ?? [])].filter((f) => !fs.has(f))
      return fs.size > 1 || others.length ? [`${c}: ${[...fs, ...others].join(', ')}`] : []
    })
    expect(clashes).toEqual([])
    // every area file is imported once by ui/styles.css
    const imports = [...read('ui/styles.css').matchAll(/@import '\.\/styles\/([\w-]+\.css)'/g)].map((m) => m[1])
    expect(imports.sort()).toEqual(files.sort())
  })
})
