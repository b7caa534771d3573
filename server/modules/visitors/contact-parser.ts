// Scanned contact cards (vCard 2.1/3.0/4.0 and MECARD, e.g. from a business card's QR code) to the
// contact data of a guest. Pure functions, no library: none of the vCard parsers on the registry is
// maintained, and the two formats need ~100 lines.

import type { Contact } from './model'

export interface ParsedContact extends Contact {
  mobilePhoneNumber: string | null
  web: string | null
  address: { street: string | null; streetNumber: string | null; postCode: string | null; city: string | null; country: string | null }
}

const COUNTRIES: Record<string, string> = {
  deutschland: 'DEU', germany: 'DEU', de: 'DEU', deu: 'DEU', österreich: 'AUT', austria: 'AUT', at: 'AUT', aut: 'AUT', schweiz: 'CHE', switzerland: 'CHE', ch: 'CHE', che: 'CHE',
  frankreich: 'FRA', france: 'FRA', italien: 'ITA', italy: 'ITA', niederlande: 'NLD', netherlands: 'NLD', spanien: 'ESP', spain: 'ESP', 'united kingdom': 'GBR', uk: 'GBR', usa: 'USA', 'united states': 'USA',
}
const SALUTATIONS: Record<string, string> = { herr: 'Herr', frau: 'Frau', mr: 'Herr', 'mr.': 'Herr', mrs: 'Frau', 'mrs.': 'Frau', ms: 'Frau', 'ms.': 'Frau' }

function empty(): ParsedContact {
  return { salutation: null, title: null, firstName: null, lastName: null, email: null, company: null, position: null, phoneNumber: null, mobilePhoneNumber: null, web: null, address: { street: null, streetNumber: null, postCode: null, city: null, country: null } }
}

const clean = (s: string | undefined | null) => {
  const t = (s ?? '').trim()
  return t === '' ? null : t
}

const MAX_STREET_LINE = 220

/** "Hauptstraße 5a" → street and number */
export function splitStreet(s: string | null): { street: string | null; streetNumber: string | null } {
  if (!s) return { street: null, streetNumber: null }
  // the pattern backtracks quadratically: it only ever sees a street's length (a 20 KB card took a second)
  if (s.length > MAX_STREET_LINE) return { street: s.trim().slice(0, MAX_STREET_LINE), streetNumber: null }
  const m = /^(.*?\D)\s*(\d+\s*[a-zA-Z]?(?:\s*[-/]\s*\d+\s*[a-zA-Z]?)?)$/.exec(s.trim())
  return m ? { street: m[1].trim(), streetNumber: m[2].replace(/\s+/g, '') } : { street: s.trim(), streetNumber: null }
}

function prefix(c: ParsedContact, p: string | null) {
  if (!p) return
  for (const word of p.split(/\s+/)) {
    const sal = SALUTATIONS[word.toLowerCase()]
    if (sal && !c.salutation) c.salutation = sal
    else c.title = [c.title, word].filter(Boolean).join(' ')
  }
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = []
  const soft = s.replace(/=\r?\n/g, '')
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...new TextEncoder().encode(soft[i]))
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

const unescapeV = (s: string) => s.replace(/\\n/gi, '\n').replace(/\\([,;:\\])/g, '$1')
/** split on unescaped separators */
const splitV = (s: string, sep: string) => s.split(new RegExp(`(?<!\\\\)${sep === ';' ? ';' : ','}`)).map(unescapeV)

export function parseVCard(text: string): ParsedContact {
  const c = empty()
  const lines = text.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '').split('\n')
  let fn: string | null = null
  for (const raw of lines) {
    const colon = raw.search(/(?<!\\):/)
    if (colon < 0) continue
    const head = raw.slice(0, colon)
    let value = raw.slice(colon + 1)
    const [nameWithGroup, ...params] = head.split(';')
    const name = nameWithGroup.split('.').pop()!.toUpperCase()
    const p = params.join(';').toUpperCase()
    if (p.includes('QUOTED-PRINTABLE')) value = decodeQuotedPrintable(value)
    switch (name) {
      case 'N': {
        const [last, first, , pre] = splitV(value, ';')
        c.lastName = clean(last)
        c.firstName = clean(first)
        prefix(c, clean(pre))
        break
      }
      case 'FN':
        fn = clean(unescapeV(value))
        break
      case 'EMAIL':
        c.email ??= clean(unescapeV(value))?.toLowerCase() ?? null
        break
      case 'ORG':
        c.company ??= clean(splitV(value, ';')[0])
        break
      case 'TITLE':
        c.position ??= clean(unescapeV(value))
        break
      case 'TEL': {
        const v = clean(unescapeV(value).replace(/^tel:/i, ''))
        if (/CELL|MOBILE/.test(p)) c.mobilePhoneNumber ??= v
        else c.phoneNumber ??= v
        break
      }
      case 'URL':
        c.web ??= clean(unescapeV(value))
        break
      case 'ADR': {
        if (c.address.city || c.address.street) break
        const [, , street, city, , postCode, country] = splitV(value, ';')
        Object.assign(c.address, splitStreet(clean(street)))
        c.address.city = clean(city)
        c.address.postCode = clean(postCode)
        const ctry = clean(country)
        c.address.country = ctry ? (COUNTRIES[ctry.toLowerCase()] ?? ctry) : null
        break
      }
    }
  }
  if (!c.firstName && !c.lastName && fn) {
    const parts = fn.split(/\s+/)
    c.lastName = parts.pop() ?? null
    c.firstName = parts.join(' ') || null
  }
  return c
}

export function parseMeCard(text: string): ParsedContact {
  const c = empty()
  const body = text.trim().replace(/^MECARD:/i, '')
  for (const field of body.split(/(?<!\\);/)) {
    const i = field.indexOf(':')
    if (i < 0) continue
    const key = field.slice(0, i).toUpperCase()
    const value = field.slice(i + 1).replace(/\\([;:,\\])/g, '$1')
    switch (key) {
      case 'N': {
        const [last, first] = value.split(',')
        c.lastName = clean(last)
        c.firstName = clean(first)
        break
      }
      case 'EMAIL':
        c.email ??= clean(value)?.toLowerCase() ?? null
        break
      case 'TEL':
        c.phoneNumber ??= clean(value)
        break
      case 'URL':
        c.web ??= clean(value)
        break
      case 'ORG':
        c.company ??= clean(value)
        break
      case 'ADR': {
        // po-box, extended, street, city, region, postcode, country (comma separated)
        const parts = value.split(',')
        if (parts.length >= 7) {
          Object.assign(c.address, splitStreet(clean(parts[2])))
          c.address.city = clean(parts[3])
          c.address.postCode = clean(parts[5])
          const ctry = clean(parts[6])
          c.address.country = ctry ? (COUNTRIES[ctry.toLowerCase()] ?? ctry) : null
        } else Object.assign(c.address, splitStreet(clean(value)))
        break
      }
    }
  }
  return c
}

/** null when the text is neither a vCard nor a MECARD */
export function parseContactCard(data: string): ParsedContact | null {
  const t = data.trim()
  if (/^BEGIN:VCARD/i.test(t)) return parseVCard(t)
  if (/^MECARD:/i.test(t)) return parseMeCard(t)
  return null
}
