// The one way the UI talks to the server. Errors arrive in the spec's shape and become ApiError.
import { currentLanguage } from '../i18n'

export interface FieldError {
  field: string
  errorType: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    readonly errorMessage: string,
    readonly errorTranslation?: string,
    readonly errorFields: FieldError[] = [],
    readonly body: Record<string, unknown> = {},
  ) {
    super(errorTranslation ?? errorMessage ?? errorType)
  }
}

const ACCOUNT_KEY = 'einlass.account'
// set once this browser has shown a guest their own data (the session cookie itself is HttpOnly):
// the public form then asks for the guest's data to pre-fill, anonymous visitors pay no request.
// A guest link's session also sets the readable cookie einlass_known=1 (no secret in it).
const KNOWN_GUEST_KEY = 'einlass.knownGuest'

export const session = {
  get accountId(): string | null {
    try {
      return sessionStorage.getItem(ACCOUNT_KEY)
    } catch {
      return null
    }
  },
  set accountId(v: string | null) {
    try {
      if (v) sessionStorage.setItem(ACCOUNT_KEY, v)
      else sessionStorage.removeItem(ACCOUNT_KEY)
    } catch {}
  },
  get knownGuest(): boolean {
    // the server's marker beside a guest-link session (guest/link-session.ts): a page opened straight
    // from the mail knows the guest before any dashboard ran in this browser
    if (typeof document !== 'undefined' && /(?:^|;\s*)einlass_known=1(?:;|$)/.test(document.cookie)) return true
    try {
      return localStorage.getItem(KNOWN_GUEST_KEY) === '1'
    } catch {
      return false
    }
  },
  set knownGuest(v: boolean) {
    try {
      if (v) localStorage.setItem(KNOWN_GUEST_KEY, '1')
      else localStorage.removeItem(KNOWN_GUEST_KEY)
    } catch {}
  },
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-language': currentLanguage(), ...init.headers }
  if (session.accountId) headers['x-account-id'] = session.accountId
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  return answerOf<T>(fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: init.signal }))
}

/**
 * The answer to a request as api() reads it (JSON, errors as ApiError), also for a request made
 * elsewhere: the public event page's first requests leave before the UI has loaded (ui/apps/public/early.ts).
 */
export async function answerOf<T = unknown>(request: Promise<Response>): Promise<T> {
  let res: Response
  try {
    res = await request
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e
    throw new ApiError(0, 'NETWORK', 'Keine Verbindung zum Server.')
  }
  const text = await res.text()
  const data = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text
  if (!res.ok) {
    const d = typeof data === 'object' && data ? data : {}
    const err = new ApiError(res.status, d.errorType ?? 'INTERNAL_ERROR', d.errorMessage ?? res.statusText, d.errorTranslation, d.errorFields ?? [], d)
    reportAuthError(err)
    throw err
  }
  return data as T
}

export const get = <T>(path: string, init?: { signal?: AbortSignal }) => api<T>('GET', path, undefined, init)
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body)
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body)
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body)
export const del = <T>(path: string, body?: unknown) => api<T>('DELETE', path, body)

/** Uploads a public image of the agency (POST /proxy/api/asset, secure false): an event's or a plan's picture, a logo. */
export function uploadPublicAsset(file: File, type: 'EVENT' | 'LOGO'): Promise<{ id: number }> {
  const form = new FormData()
  form.append('file', file)
  form.append('fileName', file.name)
  form.append('type', type)
  form.append('secure', 'false')
  return api<{ id: number }>('POST', '/proxy/api/asset', form)
}

/** The text to show for an error: server translation, else message, else the generic one. */
export function errorText(e: unknown, fallback = 'Entschuldigung, hier ist etwas schief gelaufen.'): string {
  if (e instanceof ApiError) return e.errorTranslation || e.errorMessage || fallback
  return fallback
}

/** Listeners told when any call answers that the caller is no longer authenticated. */
const authListeners = new Set<(e: ApiError) => void>()
export function onAuthError(l: (e: ApiError) => void): () => void {
  authListeners.add(l)
  return () => void authListeners.delete(l)
}
export function reportAuthError(e: ApiError) {
  if (e.status === 401 && (e.errorType === 'NOT_AUTHENTICATED' || e.errorType === 'USER_NOT_FOUND')) for (const l of authListeners) l(e)
}
