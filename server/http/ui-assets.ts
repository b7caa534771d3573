// The prebuilt UI, served from memory inside the compiled binary (files embedded through a generated
// manifest) or from ui/build/public on disk when running from source.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

export interface UiAssets {
  /** path like /assets/app-1a2b.js → file, or null */
  get(path: string): { file: Blob; gz: Blob | null } | null
  has(path: string): boolean
  /**
   * The SPA page for a UI route; /public/… routes get the copy that preloads the public chunks, and an
   * event page whose event has a seating plan (`seating`) the copy that draws the plan first.
   */
  indexHtml(path?: string, seating?: boolean): Blob | null
}

/** Which built page answers a UI route (build.ts writes all three). */
export const indexFor = (path: string | undefined, has: (p: string) => boolean, seating = false) =>
  path?.startsWith('/public/') && has('/index-public.html') ? (seating && has('/index-public-seating.html') ? '/index-public-seating.html' : '/index-public.html') : '/index.html'

/**
 * The event of a public event page (/public/event/ID), else null. Not the embedded frame: a host
 * page's frame has its own height and width, the plan-first page is for the page of its own.
 */
export function publicEventOfPath(path: string): number | null {
  const m = /^\/public\/event\/(\d{1,15})\/?$/.exec(path)
  return m ? Number(m[1]) : null
}

export const noUi: UiAssets = { get: () => null, has: () => false, indexHtml: () => null }

/** From a manifest of embedded files: { '/assets/x.js': '$bunfs/…' }. */
export function embeddedAssets(manifest: Record<string, string>): UiAssets {
  const files = new Map<string, Blob>()
  for (const [p, f] of Object.entries(manifest)) files.set(p, Bun.file(f))
  return {
    get: (p) => {
      const file = files.get(p)
      return file ? { file, gz: files.get(`${p}.gz`) ?? null } : null
    },
    has: (p) => files.has(p),
    indexHtml: (path, seating) => files.get(indexFor(path, (p) => files.has(p), seating)) ?? null,
  }
}

/** From a folder on disk (npm start, development). */
export function diskAssets(dir: string): UiAssets {
  if (!existsSync(join(dir, 'index.html'))) return noUi
  const files = new Map<string, string>()
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else files.set(`/${relative(dir, full).split('\\').join('/')}`, full)
    }
  }
  walk(dir)
  return {
    get: (p) => {
      const f = files.get(p)
      if (!f) return null
      const gz = files.get(`${p}.gz`)
      return { file: Bun.file(f), gz: gz ? Bun.file(gz) : null }
    },
    has: (p) => files.has(p),
    indexHtml: (path, seating) => {
      const f = files.get(indexFor(path, (p) => files.has(p), seating))
      return f ? Bun.file(f) : null
    },
  }
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json',
}

export function contentType(path: string) {
  return TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
}

/** Paths that belong to the API, never to the SPA fallback. */
export const isApiPath = (p: string) =>
  p.startsWith('/proxy/') || p.startsWith('/api/') || p.startsWith('/auth/') || p === '/health' || p === '/ready' || p.startsWith('/userDetails')

export function serveAsset(assets: UiAssets, path: string, request: Request, headers: Record<string, any>): Response | null {
  const hit = assets.get(path)
  if (!hit) return null
  const immutable = path.startsWith('/assets/')
  headers['cache-control'] = immutable ? 'public, max-age=31536000, immutable' : 'no-cache'
  headers['content-type'] = contentType(path)
  headers['vary'] = 'accept-encoding'
  if (hit.gz && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    headers['content-encoding'] = 'gzip'
    return new Response(hit.gz, { headers })
  }
  return new Response(hit.file, { headers })
}
