// The catalogues of every language (docs/languages.md): each has every German key and no other,
// the same placeholders, plurals with the branches of its language, no stray brace, no empty text;
// and each locales/<code>.json is listed for the build (locales/index.ts) and is a language of §9.1.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogues, catalogueFor, hasCatalogue, t } from './catalogue'
import { de } from './de'
import { BRANCHES, PLURAL } from './interpolate'
import { LANGUAGE_CODES } from './languages'
import { LOCALE_FILES } from './locales'

const DIR = join(import.meta.dir, 'locales')
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'))
const own = (code: string) => JSON.parse(readFileSync(join(DIR, `${code}.json`), 'utf8')) as Record<string, unknown>

/** The branches of each plural in a text, `[{ name, keys: ['one', 'other'] }]`. */
const pluralsOf = (text: string) => [...text.matchAll(PLURAL)].map((m) => ({ name: m[1], keys: [...m[2].matchAll(BRANCHES)].map((b) => b[1]) }))

/** Placeholder names of a text ({x} and the plural's own {n, plural, …}), sorted. */
const names = (s: string) => [...new Set([...s.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]))].sort().join(',')

/** Problems of one text against its German. */
export function textProblems(lang: string, key: string, text: unknown, german: string): string[] {
  if (typeof text !== 'string') return [`${lang} ${key}: not a string`]
  if (!text.trim()) return [`${lang} ${key}: empty`]
  const out: string[] = []
  if (names(text) !== names(german)) out.push(`${lang} ${key}: placeholders {${names(text)}} instead of {${names(german)}}`)
  const categories = new Set<string>(new Intl.PluralRules(lang.startsWith('de') ? 'de' : lang).resolvedOptions().pluralCategories)
  const plurals = pluralsOf(text)
  const germanPlurals = pluralsOf(german).map((p) => p.name).sort().join(',')
  if (plurals.map((p) => p.name).sort().join(',') !== germanPlurals) out.push(`${lang} ${key}: plurals of {${plurals.map((p) => p.name)}} instead of {${germanPlurals}}`)
  for (const p of plurals) {
    if (!p.keys.includes('other')) out.push(`${lang} ${key}: plural {${p.name}} has no other`)
    for (const k of p.keys) if (!k.startsWith('=') && !categories.has(k)) out.push(`${lang} ${key}: plural category ${k} does not exist in ${lang}`)
  }
  // after the plurals and placeholders, no brace is left (a broken plural or a typo)
  const rest = text.replace(PLURAL, '').replace(/\{\w+\}/g, '').replace(/\{ \}/g, '')
  if (/[{}]/.test(rest)) out.push(`${lang} ${key}: a brace that is no placeholder or plural`)
  return out
}

describe('catalogues', () => {
  test('every locales/*.json is a language of §9.1 and listed in locales/index.ts, and each listed one exists', () => {
    const codes = files.map((f) => f.replace(/\.json$/, '')).sort()
    expect(codes.filter((c) => !LANGUAGE_CODES.includes(c) || ['de', 'de-du', 'en'].includes(c))).toEqual([])
    expect(Object.keys(LOCALE_FILES).sort()).toEqual(codes)
  })

  test('German, de-du and en: plurals well formed (German rules), no stray braces', () => {
    const problems = Object.keys(de).flatMap((k) => ['de', 'de-du', 'en'].flatMap((l) => textProblems(l === 'en' ? 'en' : 'de', k, catalogues[l][k], de[k])))
    expect(problems).toEqual([])
  })

  for (const file of files) {
    const code = file.replace(/\.json$/, '')
    test(`${code}: every German key, no other, same placeholders and well-formed plurals`, () => {
      const cat = own(code)
      const missing = Object.keys(de).filter((k) => !(k in cat))
      const extra = Object.keys(cat).filter((k) => !(k in de))
      expect({ missing, extra }).toEqual({ missing: [], extra: [] })
      expect(Object.keys(de).flatMap((k) => textProblems(code, k, cat[k], de[k]))).toEqual([])
      expect(hasCatalogue(code)).toBe(true)
      expect(catalogueFor(code)['common.save']).toBe(cat['common.save'] as string)
    })
    test(`${code}: its own text, not a copy of German`, () => {
      const cat = own(code)
      const same = Object.keys(de).filter((k) => cat[k] === de[k]).length
      expect(same / Object.keys(de).length).toBeLessThan(0.25)
    })
  }
})

describe('the checks catch what they should', () => {
  test('a missing placeholder, a foreign plural category, a missing other, a stray brace', () => {
    const g = 'Noch {n, plural, one {# Platz} other {# Plätze}} für {name}'
    expect(textProblems('fr', 'k', 'Encore {n, plural, one {# place} other {# places}} pour {name}', g)).toEqual([])
    expect(textProblems('fr', 'k', 'Encore {n, plural, one {# place} other {# places}}', g)[0]).toContain('placeholders')
    expect(textProblems('fr', 'k', 'Encore {n, plural, one {# place} few {# places} other {# places}} pour {name}', g)[0]).toContain('category few')
    expect(textProblems('ru', 'k', 'Ещё {n, plural, one {# место} few {# места} many {# мест} other {# места}} для {name}', g)).toEqual([])
    expect(textProblems('fr', 'k', 'Encore {n, plural, one {# place}} pour {name}', g).join()).toContain('no other')
    expect(textProblems('fr', 'k', 'Encore {n, plural, one {# place} other {# places} pour {name}', g).join()).toContain('brace')
    expect(textProblems('fr', 'k', '', g)).toEqual(['fr k: empty'])
  })

  test('a text a catalogue lacks reads German; the others its own', () => {
    const uk = catalogueFor('uk')
    const own = uk['errors.NOT_FOUND']
    expect(t('uk', 'errors.NOT_FOUND')).toBe(own)
    expect(own).not.toBe(de['errors.NOT_FOUND'])
    delete uk['errors.NOT_FOUND']
    try {
      expect(t('uk', 'errors.NOT_FOUND')).toBe(de['errors.NOT_FOUND'])
    } finally {
      uk['errors.NOT_FOUND'] = own
    }
  })
})
