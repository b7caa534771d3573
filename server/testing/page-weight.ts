// What a browser downloads for a page of the UI, counted the way DevTools counts it (bytes on the
// wire: status line, headers and the body as sent). The UI is built the way build.ts builds it
// (ui/bundle.ts buildUiFolder: scripts, index pages, gzip twins) and served by the app's own asset
// handler on a real port; the page is loaded like a browser loads it: the route's HTML, its module
// scripts and modulepreloads, every static import of each script (read from the code as served),
// and the chunks the route imports lazily on the way to the page (the area's chunk), with theirs.
import { gunzipSync } from 'node:zlib'
import type { Metafile } from '../../ui/bundle'

export interface WireFile {
  /** path as requested, e.g. /assets/chunk-x.js */
  path: string
  /** bytes on the wire: status line + headers + body as sent */
  wire: number
  /** the body as sent (gzip when the server answered with it) */
  body: number
  /** the source files the bundler put into it (from the metafile) */
  inputs: string[]
}

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g

/** Bytes of an HTTP/1.1 answer's head as it crossed the wire. */
function headBytes(r: Response): number {
  let n = `HTTP/1.1 ${r.status} ${r.statusText || 'OK'}\r\n`.length + 2
  r.headers.forEach((value, name) => (n += name.length + 2 + Buffer.byteLength(value) + 2))
  return n
}

/**
 * Loads `route` from the server at `base` like a browser with an empty cache and returns the scripts
 * it fetched. `lazy`: source files (repo-relative) whose chunks the route imports on demand before
 * the page shows (for a guest page: ui/apps/guest/index.tsx); found through the metafile.
 */
export async function scriptsOfPage(base: string, route: string, metafile: Metafile, lazy: string[]): Promise<WireFile[]> {
  const outputs = metafile.outputs
  const byName = new Map(Object.keys(outputs).map((o) => [o.replace(/^.*\//, ''), o]))
  const headers = { 'accept-encoding': 'gzip, deflate, br', accept: '*/*', 'user-agent': 'einlass page weight' }
  const page = await fetch(`${base}${route}`, { headers: { ...headers, accept: 'text/html' } })
  if (page.status !== 200) throw new Error(`${route} answered ${page.status}`)
  const html = await page.text()
  const queue: string[] = [...html.matchAll(/<script type="module" src="([^"]+)"/g), ...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1])
  for (const input of lazy) {
    const hit = Object.keys(outputs).find((o) => o.endsWith('.js') && Object.keys(outputs[o].inputs).some((i) => i.endsWith(input)))
    if (!hit) throw new Error(`no chunk holds ${input}`)
    queue.push(`/assets/${hit.replace(/^.*\//, '')}`)
  }
  const seen = new Map<string, WireFile>()
  while (queue.length) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    const r = await fetch(`${base}${path}`, { headers, decompress: false } as RequestInit)
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`)
    const raw = Buffer.from(await r.arrayBuffer())
    const code = (r.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')
    const out = byName.get(path.replace(/^.*\//, ''))
    seen.set(path, { path, wire: headBytes(r) + raw.length, body: raw.length, inputs: out ? Object.keys(outputs[out].inputs) : [] })
    for (const m of code.matchAll(STATIC_IMPORT)) queue.push(new URL(m[1], `${base}${path}`).pathname)
  }
  return [...seen.values()]
}
