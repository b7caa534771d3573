// A DKIM verifier for tests (RFC 6376, rsa-sha256, relaxed or simple canonicalisation): checks a
// received message's DKIM-Signature against the public key published for its selector, so a test
// proves the signature a receiving server would check, not just that a header is present.
import { createHash, createPublicKey, createVerify } from 'node:crypto'

export interface DkimResult {
  ok: boolean
  domain: string
  selector: string
  reason?: string
}

function splitHeaders(head: string): Array<{ name: string; raw: string }> {
  const fields: Array<{ name: string; raw: string }> = []
  for (const line of head.split('\r\n')) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1]!.raw += `\r\n${line}`
    else if (line) fields.push({ name: line.slice(0, line.indexOf(':')).trim(), raw: line })
  }
  return fields
}

const relaxedHeader = (raw: string) => {
  const i = raw.indexOf(':')
  return `${raw.slice(0, i).trim().toLowerCase()}:${raw
    .slice(i + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`
}

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
  while (lines.length && lines[lines.length - 1] === '') lines.pop()
  return lines.length ? `${lines.join('\r\n')}\r\n` : ''
}

function simpleBody(body: string): string {
  let b = body
  while (b.endsWith('\r\n\r\n')) b = b.slice(0, -2)
  return b.endsWith('\r\n') ? b : `${b}\r\n`
}

/** keyFor: the TXT record's p= for a selector and domain (e.g. read from the test DNS server). */
export async function verifyDkim(rawMessage: Buffer | string, keyFor: (selector: string, domain: string) => Promise<string | null> | string | null): Promise<DkimResult> {
  const raw = rawMessage.toString().replace(/\r?\n/g, '\r\n')
  const cut = raw.indexOf('\r\n\r\n')
  const fields = splitHeaders(raw.slice(0, cut))
  const body = raw.slice(cut + 4)
  const sig = fields.find((f) => f.name.toLowerCase() === 'dkim-signature')
  if (!sig) return { ok: false, domain: '', selector: '', reason: 'no DKIM-Signature' }
  const tags = Object.fromEntries(
    sig.raw
      .slice(sig.raw.indexOf(':') + 1)
      .replace(/\r\n/g, '')
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => [t.slice(0, t.indexOf('=')).trim(), t.slice(t.indexOf('=') + 1).replace(/[ \t]/g, '')]),
  ) as Record<string, string>
  const domain = tags.d ?? ''
  const selector = tags.s ?? ''
  if (tags.a !== 'rsa-sha256') return { ok: false, domain, selector, reason: `algorithm ${tags.a}` }
  const [headerCanon, bodyCanon = 'simple'] = (tags.c ?? 'simple/simple').split('/')
  const canonBody = bodyCanon === 'relaxed' ? relaxedBody(body) : simpleBody(body)
  const bh = createHash('sha256')
    .update(tags.l ? canonBody.slice(0, Number(tags.l)) : canonBody)
    .digest('base64')
  if (bh !== tags.bh) return { ok: false, domain, selector, reason: 'body hash differs' }
  const used = new Set<number>()
  const lines: string[] = []
  for (const name of (tags.h ?? '').split(':')) {
    let idx = -1
    for (let i = fields.length - 1; i >= 0; i--)
      if (!used.has(i) && fields[i]!.name.toLowerCase() === name.toLowerCase() && fields[i] !== sig) {
        idx = i
        break
      }
    if (idx < 0) continue
    used.add(idx)
    lines.push(headerCanon === 'relaxed' ? relaxedHeader(fields[idx]!.raw) : fields[idx]!.raw)
  }
  const sigNoB = sig.raw.replace(/(;\s*b=)[^;]*/, "$1")
  const signed = `${lines.map((l) => `${l}\r\n`).join('')}${headerCanon === 'relaxed' ? relaxedHeader(sigNoB) : sigNoB}`
  const p = await keyFor(selector, domain)
  if (!p) return { ok: false, domain, selector, reason: 'no key published' }
  const key = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' })
  const ok = createVerify('RSA-SHA256').update(signed).verify(key, Buffer.from(tags.b ?? '', 'base64'))
  return ok ? { ok, domain, selector } : { ok, domain, selector, reason: 'signature does not verify' }
}
