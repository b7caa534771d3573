// Large JSON answers are compressed when the client accepts it (a seating area of 5,000 chairs is
// 1.9 MB of JSON: 45 KB with brotli quality 1 in about 4 ms, 92 KB with gzip level 1 in about 2 ms;
// docs/benchmarks.md). Fast levels on purpose: the answer is made per request, and the bytes saved
// matter on a phone's network far more than the last tenth of the ratio. Small answers and anything
// already encoded or not JSON pass untouched; `vary: accept-encoding` keeps caches apart.
import { brotliCompressSync, constants } from 'node:zlib'

/** Answers at least this big are compressed (smaller ones fit a few packets anyway). */
export const COMPRESS_MIN_BYTES = 16 * 1024

export function pickEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  const accepted = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return [name, q ? Number(q.slice(2)) : 1] as const
    }),
  )
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null
}

export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? ''
  if (response.status !== 200 || !type.startsWith('application/json') || response.headers.has('content-encoding') || request.method === 'HEAD') return response
  const encoding = pickEncoding(request.headers.get('accept-encoding'))
  if (!encoding) return response
  const length = Number(response.headers.get('content-length') ?? NaN)
  if (!Number.isNaN(length) && length < COMPRESS_MIN_BYTES) return response
  const body = new Uint8Array(await response.arrayBuffer())
  const headers = new Headers(response.headers)
  headers.append('vary', 'accept-encoding')
  if (body.byteLength < COMPRESS_MIN_BYTES) return new Response(body, { status: response.status, statusText: response.statusText, headers })
  const packed = encoding === 'br' ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }) : Bun.gzipSync(body, { level: 1 })
  headers.set('content-encoding', encoding)
  headers.delete('content-length')
  return new Response(packed, { status: response.status, statusText: response.statusText, headers })
}
