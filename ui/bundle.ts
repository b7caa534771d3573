// Bundles the browser UI (run by build.ts and by the size budget test, never shipped): entry ui/main.tsx,
// one lazily loaded chunk per area, react imports served by preact/compat.
import type { BunPlugin } from 'bun'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')

/** React imports of libraries (wouter, react-hook-form) resolve to preact's compat layer. */
const preactCompat: BunPlugin = {
  name: 'preact-compat',
  setup(b) {
    const map: Record<string, string> = {
      react: 'preact/compat',
      'react-dom': 'preact/compat',
      'react-dom/client': 'preact/compat/client',
      'react/jsx-runtime': 'preact/jsx-runtime',
      'react/jsx-dev-runtime': 'preact/jsx-runtime',
      'use-sync-external-store/shim': 'preact/compat',
      'use-sync-external-store/shim/index.js': 'preact/compat',
    }
    b.onResolve({ filter: /^(react|react-dom|react-dom\/client|react\/jsx-runtime|react\/jsx-dev-runtime|use-sync-external-store\/shim(\/index\.js)?)$/ }, (a) => ({
      path: Bun.resolveSync(map[a.path], root),
    }))
  },
}

/** The UI's entries: the app, and the seating page's first module (ui/apps/public/plan-first.tsx). */
const APP_ENTRY = 'ui/main.tsx'
const PLAN_FIRST_ENTRY = 'ui/apps/public/plan-first.tsx'
const entryOf = (metafile: Metafile, input: string) => {
  const out = Object.keys(metafile.outputs).find((o) => o.endsWith('.js') && metafile.outputs[o].entryPoint?.endsWith(input))
  if (!out) throw new Error(`no entry script for ${input} in the build`)
  return out
}

export async function bundleUi(outdir: string) {
  const result = await Bun.build({
    entrypoints: [join(root, APP_ENTRY), join(root, PLAN_FIRST_ENTRY)],
    outdir,
    target: 'browser',
    format: 'esm',
    splitting: true,
    // EINLASS_UI_KEEP_NAMES=1 keeps function names for CPU profiles (bench/seat-plan-load.ts SEAT_BENCH_PROFILE)
    minify: process.env.EINLASS_UI_KEEP_NAMES ? { whitespace: true, syntax: true, identifiers: false } : true,
    sourcemap: 'none',
    metafile: true,
    naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
    plugins: [preactCompat],
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  if (!result.success) {
    for (const l of result.logs) console.error(l)
    throw new Error('UI build failed')
  }
  return result
}

/**
 * The public event page's early requests (ui/apps/public/early.ts): a classic script of its own that
 * the page's HTML runs before the modules load. Returns its file in outdir.
 */
export async function bundleEarly(outdir: string): Promise<string> {
  return bundleClassic(outdir, 'early.ts')
}

/** The public event page's worker: seating plan and first area, ICU's date data (ui/apps/public/page-worker.ts). */
export async function bundlePageWorker(outdir: string): Promise<string> {
  return bundleClassic(outdir, 'page-worker.ts')
}

/** A classic script of the public area without imports, hashed into outdir. */
async function bundleClassic(outdir: string, file: string): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(root, 'ui', 'apps', 'public', file)],
    outdir,
    target: 'browser',
    format: 'iife',
    minify: true,
    sourcemap: 'none',
    naming: { entry: '[name]-[hash].[ext]' },
  })
  if (!result.success) {
    for (const l of result.logs) console.error(l)
    throw new Error(`UI build failed (${file})`)
  }
  return result.outputs[0].path
}

function walk(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...walk(full))
    else out.push(full)
  }
  return out
}

/**
 * The UI's public folder as the server serves it (build.ts, and the guest pages' budget test that
 * loads a page through the server like a browser): scripts and styles under assets/, index.html,
 * index-public.html (which preloads the public area's chunks), index-public-seating.html (an event
 * with a seating plan: the plan drawn first, ui/apps/public/plan-first.tsx), the static files, and a gzip twin
 * (level 9) of every text file. Returns the build result and every file written.
 */
export async function buildUiFolder(publicDir: string) {
  mkdirSync(publicDir, { recursive: true })
  const assetsDir = join(publicDir, 'assets')
  const result = await bundleUi(assetsDir)
  const entry = resolve(assetsDir, entryOf(result.metafile!, APP_ENTRY))
  const planFirst = resolve(assetsDir, entryOf(result.metafile!, PLAN_FIRST_ENTRY))
  const href = (p: string) => `/${relative(publicDir, p).split('\\').join('/')}`
  const styles = result.outputs.filter((o) => o.path.endsWith('.css')).map((c) => `<link rel="stylesheet" href="${href(c.path)}">`)
  const template = readFileSync(join(root, 'ui', 'index.html'), 'utf8')
  const tags = [...styles, `<script type="module" src="${href(entry)}"></script>`]
  writeFileSync(join(publicDir, 'index.html'), template.replace('<!-- assets -->', tags.join('\n    ')))
  // /public/… routes get a copy that fetches the public area's chunks alongside the entry: without it
  // the browser finds them one round trip after another (entry, then public chunk, then its imports)
  const preload = publicPageScripts(result.metafile!, assetsDir, false)
    .map((s) => join(assetsDir, s))
    .filter((p) => p !== entry)
    .map((p) => `<link rel="modulepreload" href="${href(p)}">`)
  // and first of all the script that asks for the event, its form and (through its worker) seating
  // plan and first area before the modules have loaded: ui/apps/public/early.ts
  const early = await bundleEarly(assetsDir)
  const worker = await bundlePageWorker(assetsDir)
  const earlyTag = `<script src="${href(early)}" data-worker="${href(worker)}"></script>`
  writeFileSync(join(publicDir, 'index-public.html'), template.replace('<!-- assets -->', [earlyTag, ...tags, ...preload].join('\n    ')))
  // the public page of an event with a seating plan (the server picks it): the plan's module runs
  // first and draws the picker, then imports the app (link[data-app]), whose scripts load meanwhile
  const seatingTags = [
    earlyTag,
    ...styles,
    `<script type="module" src="${href(planFirst)}"></script>`,
    // its imports (found only once its own script is read), the app's entry and the public page's chunks
    ...seatPickerScripts(result.metafile!, assetsDir)
      .map((s) => join(assetsDir, s))
      .filter((p) => p !== planFirst)
      .map((p) => `<link rel="modulepreload" href="${href(p)}">`),
    `<link rel="modulepreload" href="${href(entry)}" data-app>`,
    ...preload,
  ]
  writeFileSync(join(publicDir, 'index-public-seating.html'), template.replace('<!-- assets -->', seatingTags.join('\n    ')))
  const staticDir = join(root, 'ui', 'static')
  if (existsSync(staticDir)) cpSync(staticDir, publicDir, { recursive: true })

  // Precompressed twins: served when the browser accepts gzip.
  for (const f of walk(publicDir)) {
    if (/\.(js|css|html|svg|json)$/.test(f)) writeFileSync(`${f}.gz`, Bun.gzipSync(readFileSync(f), { level: 9 }))
  }
  return { result, files: walk(publicDir), early, worker }
}

export type Metafile = NonNullable<Awaited<ReturnType<typeof bundleUi>>['metafile']>

/**
 * The scripts a browser fetches for the public registration page, as paths relative to the build's
 * outdir: the entry, the public area's chunk and everything they import statically, and the phone
 * chunk the form engine imports when the form has a phone field (`withPhone`).
 */
export function publicPageScripts(metafile: Metafile, outdir: string, withPhone = true): string[] {
  return pageScripts(metafile, outdir, ['ui/apps/public/index.tsx', ...(withPhone ? ['server/modules/forms/phone.ts'] : [])])
}

/**
 * The scripts a page of one area downloads: the entry, the chunks holding the given source files
 * (the area's index, a chunk it always loads) and everything they import statically. The budget tests
 * of the public, guest and pay pages measure these.
 */
export function pageScripts(metafile: Metafile, outdir: string, inputs: string[], entryInput = APP_ENTRY): string[] {
  const outputs = metafile.outputs
  const key = (p: string) => relative(outdir, resolve(outdir, p))
  const byInput = (input: string) => {
    const hit = Object.keys(outputs).find((o) => o.endsWith('.js') && Object.keys(outputs[o].inputs).some((i) => i.endsWith(input)))
    if (!hit) throw new Error(`no chunk holds ${input}`)
    return hit
  }
  const entry = entryOf(metafile, entryInput)
  const seen = new Set<string>()
  const visit = (out: string) => {
    const k = key(out)
    if (seen.has(k)) return
    seen.add(k)
    for (const imp of outputs[out].imports) {
      if (imp.kind !== 'import-statement') continue
      const target = Object.keys(outputs).find((o) => key(o) === key(join(out, '..', imp.path)))
      if (target) visit(target)
    }
  }
  visit(entry)
  for (const input of inputs) visit(byInput(input))
  return [...seen]
}

/**
 * The seat picker's chunk and what it imports that the public page has not loaded, relative to the
 * build's outdir: what an event with a seating plan fetches on top of the public page.
 */
export function seatPickerScripts(metafile: Metafile, outdir: string): string[] {
  // the seating page's first module and what it imports that the public page does not
  const page = publicPageScripts(metafile, outdir, false)
  return pageScripts(metafile, outdir, [], PLAN_FIRST_ENTRY).filter((s) => !page.includes(s))
}

