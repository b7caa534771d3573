// The one check for redirect targets taken from a request (`/logout?redirect=`, `/auth/select/{id}
// ?redirect=`, the login page's `?redirect=`), shared by the server and the UI: whatever a target
// contains (tab, CR/LF, backslash, encoded characters, dot segments, an absolute URL), the answer
// is a path on this site or the fallback. docs/security.md, "Redirects".

const BASE = 'http://einlass.invalid'
/** Control characters (a browser drops tab/CR/LF inside URLs: "/\t/evil" becomes "//evil") and backslashes (read as "/"). */
const TRICKY = /[\u0000-\u001f\u007f\\]/

export function safeRedirect(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string' || target.length > 2000) return fallback
  if (!target.startsWith('/') || target.startsWith('//') || TRICKY.test(target)) return fallback
  let url: URL
  try {
    url = new URL(target, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  // the normalised form ("/.//evil.com" normalises to "//evil.com")
  const path = url.pathname + url.search + url.hash
  if (!path.startsWith('/') || path.startsWith('//')) return fallback
  // and what a consumer that decodes once more would see (%2F%2F, %5C, %09, %0D%0A)
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return fallback
  }
  if (decoded.startsWith('//') || decoded.startsWith('/\\') || TRICKY.test(decoded)) return fallback
  return path
}
