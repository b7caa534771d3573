// Country names in any language and the list the pay page and the seller settings choose from
// (issue 20 item 24). Apart from forms/countries.ts so the public registration page, which carries
// the table, does not carry this (its page budget): German and English names come from the table,
// other languages from Intl.DisplayNames over the ISO alpha-2 code (no table shipped for them).
import { COUNTRIES, countryName } from './countries'

const RETIRED = new Set(['AN', 'BU', 'CS', 'DD', 'DY', 'FX', 'HV', 'NH', 'NT', 'RH', 'SU', 'TP', 'UK', 'VD', 'YD', 'YU', 'ZR', 'EU', 'EZ', 'UN', 'QO', 'ZZ'])
let alpha2: Map<string, string> | null = null
/**
 * The ISO 3166-1 alpha-2 code of a stored alpha-3 code (e-invoices and wallet passes want two
 * letters). The table's English names are CLDR's, so Intl's region names map them back; built once.
 */
export function alpha2Of(code: string): string | null {
  if (!alpha2) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    const byName = new Map<string, string>()
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    for (const a of A) {
      for (const b of A) {
        // retired codes name the same countries as current ones (FX France, UK, YU, TP, ZR, BU …): never theirs
        if (RETIRED.has(a + b)) continue
        try {
          const n = names.of(a + b)
          if (n && n !== a + b) byName.set(n, a + b)
        } catch {}
      }
    }
    alpha2 = new Map(COUNTRIES.filter((c) => !c.spacer && byName.has(c.intName)).map((c) => [c.code, byName.get(c.intName)!]))
  }
  return alpha2.get(code) ?? null
}

/** A stored code's name in the reader's language; an unknown code as it is. */
export function countryNameIn(code: string | null | undefined, language = 'de'): string {
  if (!code || language.startsWith('de') || language.startsWith('en')) return countryName(code, language)
  const a2 = alpha2Of(code)
  try {
    const n = a2 ? new Intl.DisplayNames([language], { type: 'region' }).of(a2) : undefined
    if (n && n !== a2) return n
  } catch {}
  return countryName(code, 'en')
}

/** The selectable countries in their continent groups, named in the reader's language. */
export function countryGroups(language = 'de'): Array<{ group: string; items: Array<{ code: string; name: string }> }> {
  const groups = new Map<string, Array<{ code: string; name: string }>>()
  const heading = new Map(COUNTRIES.filter((c) => c.spacer).map((c) => [c.group, language.startsWith('de') ? c.name : c.intName]))
  for (const c of COUNTRIES) if (!c.spacer) groups.set(c.group, [...(groups.get(c.group) ?? []), { code: c.code, name: countryNameIn(c.code, language) }])
  return [...groups].map(([g, items]) => ({ group: heading.get(g) ?? g, items }))
}
