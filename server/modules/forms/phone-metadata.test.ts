// The phone reader's trimmed metadata (./phone-metadata.ts: libphonenumber's "min" without the number
// formats) reads every number exactly as the full "min" metadata does: every country's example
// number written nationally, internationally (+ and the 00 prefix), one digit short and one too
// many, each read with every region, plus random digit strings.
import { describe, expect, test } from 'bun:test'
import examples from 'libphonenumber-js/examples.mobile.json'
import metadata from 'libphonenumber-js/metadata.min.json'
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/min'
import { phoneToE164 } from './phone'
import { phoneMetadata } from './phone-metadata'

/** phone.ts's reading with the untouched "min" metadata */
function reference(value: string, defaultLocale: string): string | null {
  const region = (defaultLocale || 'de').slice(0, 2).toUpperCase() as CountryCode
  try {
    const p = parsePhoneNumberFromString(value, region)
    return p && p.isValid() ? p.number : null
  } catch {
    return null
  }
}

const countries = Object.keys(metadata.countries)
const ex = examples as Record<string, string>

describe('phone numbers with the trimmed metadata', () => {
  test('the trimmed metadata is smaller and keeps everything but the formats', () => {
    const trimmed = phoneMetadata()
    expect(JSON.stringify(trimmed).length).toBeLessThan(JSON.stringify(metadata).length * 0.6)
    for (const c of countries) {
      const full = (metadata.countries as Record<string, unknown[]>)[c]
      expect(trimmed.countries[c].filter((_, i) => i !== 4)).toEqual(full.filter((_, i) => i !== 4))
    }
  })

  test('every example number, written four ways and broken two ways, reads the same in every region', () => {
    const regions = ['de', 'at', 'ch', 'us', 'gb', 'jp', 'xx', '']
    let valid = 0
    let compared = 0
    for (const c of countries) {
      const national = ex[c]
      if (!national) continue
      const code = (metadata.countries as Record<string, unknown[]>)[c][0] as string
      const prefix = ((metadata.countries as Record<string, unknown[]>)[c][5] as string | undefined) ?? ''
      const writings = [national, `${prefix}${national}`, `+${code}${national}`, `00${code} ${national}`, `+${code}${national.slice(0, -1)}`, `+${code}${national}7`]
      for (const w of writings)
        for (const r of [...regions, c.toLowerCase()]) {
          const want = reference(w, r)
          expect(`${w} ${r} ${phoneToE164(w, r)}`).toBe(`${w} ${r} ${want}`)
          compared++
          if (want) valid++
        }
    }
    // the comparison covers many valid and many invalid numbers (not only one kind)
    expect(valid).toBeGreaterThan(1000)
    expect(compared - valid).toBeGreaterThan(1000)
  })

  test('random digit strings read the same', () => {
    let seed = 25
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let i = 0; i < 5000; i++) {
      const digits = String(next()).padStart(10, '0') + String(next() % 10000)
      const w = i % 3 === 0 ? `+${digits.slice(0, 4 + (i % 9))}` : i % 3 === 1 ? `0${digits.slice(0, 6 + (i % 8))}` : digits.slice(0, 5 + (i % 10))
      const r = ['de', 'at', 'us', 'gb', 'ch'][i % 5]
      expect(`${w} ${r} ${phoneToE164(w, r)}`).toBe(`${w} ${r} ${reference(w, r)}`)
    }
  })
})
