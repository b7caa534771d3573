// A drawn signature as the server accepts it: a PNG data URL whose bytes really are a PNG.
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** A PNG data URL whose bytes really are a PNG; null otherwise. */
export function validSignature(s: string | null | undefined): string | null {
  if (!s) return null
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(s)
  if (!m) return null
  const bytes = Buffer.from(m[1], 'base64')
  if (bytes.length < 67 || !PNG_MAGIC.every((b, i) => bytes[i] === b)) return null
  return s
}
