// What the repository promises outside the code: the Dockerfile builds like the README, CI runs
// the README's test command, every setting and dependency is documented.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
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
    expect(pkg.scripts.test).toStartWith('bun test')
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

  test('docs/benchmarks.md gives the command it measured with', () => {
    expect(read('docs/benchmarks.md')).toContain('npm run bench')
    expect(pkg.scripts.bench).toBe('bun bench/run.ts')
  })
})
