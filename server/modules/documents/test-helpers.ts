// Helpers for the documents tests: a registered guest with a guest token, and reading documents back
// with independent tools (poppler's pdftotext/pdftoppm, zbar's zbarimg; apt: poppler-utils, zbar-tools).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Agent, Harness } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { createUser } from '../identity/test-helpers'

export async function guestWithToken(h: Harness, admin: Agent, eventId: number, body: Record<string, unknown> = {}) {
  const g = await addGuest(admin, eventId, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Jörg', lastName: 'Müller' }, { firstName: 'Zoë', lastName: 'Weiß' }], ...body })
  const user = await createUser(h, { email: g.email, password: null })
  await h.ctx.db.updateTable('event_visitor').set({ user_id: user.userId }).where('id', '=', g.id).execute()
  const token = await issueAccessToken(h.ctx, h.ctx.db, user.userId, GUEST_ACCESS)
  const guest = h.agent()
  guest.headers['x-guest-token'] = token
  return { ...g, userId: user.userId, guest }
}

export function tempFile(name: string, data: Uint8Array | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-doc-'))
  const file = join(dir, name)
  writeFileSync(file, data)
  return file
}

async function run(cmd: string[]): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  // zbarimg answers 4 when it finds no code: the caller's expectation then fails with the output
  if (code !== 0 && !(cmd[0] === 'zbarimg' && code === 4)) throw new Error(`${cmd[0]} failed (${code}): ${err}`)
  return out
}

/** The PDF's text as poppler reads it. */
export const pdfText = async (pdf: Uint8Array) => run(['pdftotext', '-layout', tempFile('doc.pdf', pdf), '-'])

/** Every QR code zbar finds on each page rendered at 200 dpi, page by page. */
export async function pdfQrCodes(pdf: Uint8Array): Promise<string[]> {
  const file = tempFile('doc.pdf', pdf)
  await run(['pdftoppm', '-png', '-r', '200', file, `${file}-page`])
  const pages = (await run(['sh', '-c', `ls ${file}-page*.png`])).trim().split('\n')
  const codes: string[] = []
  for (const png of pages) {
    const out = await run(['zbarimg', '-q', '--raw', png])
    codes.push(...out.split('\n').filter(Boolean))
  }
  return codes
}

export const pageCount = async (pdf: Uint8Array) => Number(/Pages:\s+(\d+)/.exec(await run(['pdfinfo', tempFile('doc.pdf', pdf)]))?.[1])

/** The images on the PDF's pages (poppler's pdfimages -list). */
export async function pdfImages(pdf: Uint8Array): Promise<Array<{ width: number; height: number }>> {
  const out = await run(['pdfimages', '-list', tempFile('doc.pdf', pdf)])
  return out
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c[2] === 'image')
    .map((c) => ({ width: Number(c[3]), height: Number(c[4]) }))
}
