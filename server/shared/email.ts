// E-mail addresses checked in linear time; no zod here, so the public form's engine can import it.
/** Longest e-mail address (RFC 5321 path limit); checked before any pattern looks at the text. */
export const MAX_EMAIL = 254

/**
 * An e-mail address in one pass (no regular expression: the pattern used before backtracked
 * quadratically, a long made-up address in an escort field held the server for seconds): one "@",
 * a local part and a domain with a dot that is neither first nor last, no whitespace.
 */
export function isEmailAddress(s: string): boolean {
  if (s.length > MAX_EMAIL || s.length < 5) return false
  const at = s.indexOf('@')
  if (at < 1 || at !== s.lastIndexOf('@')) return false
  const dot = s.lastIndexOf('.')
  if (dot < at + 2 || dot === s.length - 1) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c <= 32 || c === 127 || c === 0x85 || c === 0xa0 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x3000 || c === 0xfeff) return false
  }
  return true
}

