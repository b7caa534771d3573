// Shared pieces of the hostile suite (server/security/*.test.ts): small images and upload forms,
// public registrations, a guest's own link token.
import type { Harness } from '../testing/harness'

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
export const smallPng = () => new Bun.Image(PIXEL).resize(20, 20).png().bytes()

export function uploadForm(bytes: Uint8Array, name: string, extra: Record<string, string> = {}) {
  const f = new FormData()
  f.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  f.append('fileName', name)
  for (const [k, v] of Object.entries(extra)) f.append(k, v)
  return f
}

/** An anonymous browser uploading into the public form of an event (its identification header). */
export async function anonymousUpload(h: Harness, eventId: number, identification: string, type: 'EVENT_GUEST' | 'DYNAMIC_FILE' = 'EVENT_GUEST') {
  const bytes = type === 'EVENT_GUEST' ? await smallPng() : new TextEncoder().encode('Reisepass Nr. 123456789 – vertraulich')
  return h.request('POST', '/api/asset', { form: uploadForm(bytes, type === 'EVENT_GUEST' ? 'pass.png' : 'pass.pdf', { type, event: String(eventId) }), headers: { 'x-guest-identification': identification } })
}

export const publicRegister = (h: Harness, eventId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', ...body }, headers })
