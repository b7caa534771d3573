// Leitweg-ID (the German public buyer's routing id, XRechnung BT-10): coarse part of 2–12 digits,
// an optional fine part of up to 30 letters and digits, and two check digits by ISO 7064
// MOD 97-10 over the id without hyphens (letters as 10–35). Shape hint: XXX-XXXXXXXXXX-XX.
const SHAPE = /^(\d{2,12})(?:-([0-9A-Z]{1,30}))?-(\d{2})$/

function mod97(digits: string): number {
  let r = 0
  for (const ch of digits) r = (r * 10 + (ch.charCodeAt(0) - 48)) % 97
  return r
}

const asDigits = (s: string) => [...s].map((c) => (c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c)).join('')

export function leitwegCheckDigits(body: string): string {
  return String(98 - mod97(asDigits(body.toUpperCase()) + '00')).padStart(2, '0')
}

export function isValidLeitwegId(id: string): boolean {
  const m = SHAPE.exec(id.trim().toUpperCase())
  if (!m) return false
  return leitwegCheckDigits(m[1] + (m[2] ?? '')) === m[3]
}
