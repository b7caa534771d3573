// The message catalogue: complete German, complete English, de-du only where it differs; every
// error code the server can answer has a German text; every literal key the UI uses exists.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { forEachDialect } from '../testing/harness'
import { testLicenseText } from '../testing/license-test-key'
import { loadLicense } from '../modules/license/license'
import { PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY } from '../modules/license/keys'
import { catalogues, PARTS, t, translationsFor } from './catalogue'
import { SHOP_ERRORS } from './parts'
import { de } from './de'
import { LANGUAGES } from './languages'

const ROOT = resolve(import.meta.dir, '../..')

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules' && name !== 'build') out.push(...files(full, ext))
    } else if (ext.test(name)) out.push(full)
  }
  return out
}

describe('catalogue completeness', () => {
  test('every module’s en has exactly the keys of its de; de-du only overrides existing keys', async () => {
    const problems: string[] = []
    // PARTS holds every module's messages; de.ts lists every module's `de`
    const modules = files(join(ROOT, 'server'), /^messages\.ts$/).concat(join(ROOT, 'server/i18n/messages/common.ts'))
    for (const file of [...new Set(modules)]) {
      const m = await import(file)
      const name = relative(ROOT, file)
      const deKeys = Object.keys(m.de)
      for (const k of deKeys) if (!(k in m.en)) problems.push(`${name}: en lacks ${k}`)
      for (const k of Object.keys(m.en)) if (!(k in m.de)) problems.push(`${name}: en has ${k} that de lacks`)
      for (const k of Object.keys(m.deDu ?? {})) if (!(k in m.de)) problems.push(`${name}: de-du has ${k} that de lacks`)
      for (const [k, v] of Object.entries(m.de)) if (!String(v).trim()) problems.push(`${name}: de ${k} is empty`)
      // the module is registered in the catalogue
      if (!PARTS.includes(m) && !PARTS.some((p) => p.en === m.en)) problems.push(`${name}: not listed in server/i18n/catalogue.ts`)
      for (const k of deKeys) if (de[k] !== m.de[k]) problems.push(`${name}: ${k} not in server/i18n/de.ts (or overridden by another module)`)
    }
    expect(problems).toEqual([])
  })

  test('en and de-du catalogues have every German key (de-du falls back to de)', () => {
    for (const lang of ['en', 'de-du']) {
      const missing = Object.keys(de).filter((k) => !(k in catalogues[lang]))
      expect(missing).toEqual([])
    }
    // en is translated, not copied: most texts differ from German
    const same = Object.keys(de).filter((k) => catalogues.en[k] === de[k]).length
    expect(same / Object.keys(de).length).toBeLessThan(0.25)
  })

  test('placeholders agree between languages', () => {
    // a placeholder is {name} or a plural {name, plural, …}
    const names = (s: string) => [...new Set([...s.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]))].sort().join(",")
    const wrong = Object.keys(de).flatMap((k) => ['en', 'de-du'].filter((l) => names(catalogues[l][k]) !== names(de[k])).map((l) => `${l} ${k}`))
    expect(wrong).toEqual([])
  })

  test('every error code the server can answer has a German text', () => {
    const codes = new Map<string, string>()
    const nonLiteral: string[] = []
    for (const file of files(join(ROOT, 'server'), /\.ts$/)) {
      if (/\.test\.ts$|\/testing\//.test(file)) continue
      const src = readFileSync(file, 'utf8')
      const at = relative(ROOT, file)
      const add = (code: string) => codes.set(code, at)
      for (const m of src.matchAll(/new AppError\(\s*\d+\s*,\s*([^,)]+)/g)) {
        const arg = m[1].trim()
        const lit = /^'([A-Z][A-Z0-9_]+)'$/.exec(arg)
        if (lit) add(lit[1])
        else if (!/^[A-Z][A-Z0-9_]*_ERRORS?\[/.test(arg) && !/^(errorType|what)$/.test(arg)) nonLiteral.push(`${at}: new AppError(…, ${arg})`)
      }
      for (const m of src.matchAll(/errorBody\(\s*\d+\s*,\s*'([A-Z][A-Z0-9_]+)'/g)) add(m[1])
      for (const m of src.matchAll(/\b(?:conflict|notFound)\(\s*'([A-Z][A-Z0-9_]+)'/g)) add(m[1])
      for (const m of src.matchAll(/fieldError\([^)]*,\s*'([A-Z][A-Z0-9_]+)'\s*\)/g)) add(m[1])
      // codes kept in maps such as STATE_ERROR = { CLOSED: 'REGISTRATION_CLOSED', … }
      for (const m of src.matchAll(/const [A-Z][A-Z0-9_]*_ERRORS?\b[^=]*=\s*\{([^}]*)\}/g)) for (const v of m[1].matchAll(/'([A-Z][A-Z0-9_]+)'/g)) add(v[1])
    }
    expect(nonLiteral).toEqual([])
    expect(codes.size).toBeGreaterThan(15)
    const missing = [...codes].filter(([code]) => !de[`errors.${code}`]).map(([code, at]) => `errors.${code} (${at})`)
    expect(missing).toEqual([])
  })

  test('field error codes have a text (field.X, or errors.X as the UI falls back to it)', () => {
    const codes = new Set<string>()
    for (const file of files(join(ROOT, 'server'), /\.ts$/)) {
      if (/\.test\.ts$|\/testing\//.test(file)) continue
      const src = readFileSync(file, 'utf8')
      for (const m of src.matchAll(/errorType: '([A-Z][A-Z0-9_]+)'/g)) codes.add(m[1])
      // zod messages are codes too: .min(1, 'REQUIRED'), z.email('INVALID_EMAIL'), { error: 'X' }
      for (const m of src.matchAll(/\.(?:min|max|length|regex|refine|superRefine|nonnegative|positive|int|email|url|uuid|datetime|date|gte|lte|gt|lt)\([^()]*?'([A-Z][A-Z0-9_]+)'\)/g)) codes.add(m[1])
      for (const m of src.matchAll(/\b(?:error|message): '([A-Z][A-Z0-9_]+)'/g)) codes.add(m[1])
    }
    const missing = [...codes].filter((c) => !de[`field.${c}`] && !de[`errors.${c}`])
    expect(missing).toEqual([])
  })

  test('every literal key the UI translates exists in German', () => {
    const missing: string[] = []
    for (const file of files(join(ROOT, 'ui'), /\.tsx?$/)) {
      const src = readFileSync(file, 'utf8')
      for (const m of src.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]+)'/g)) if (!(m[1] in de)) missing.push(`${relative(ROOT, file)}: ${m[1]}`)
    }
    expect(missing).toEqual([])
  })

  test('t(): parameters, fallback to German, unknown key shows itself', () => {
    expect(t('de', 'license.order', { email: 'a@b.de' })).toContain('(a@b.de)')
    expect(t('fr', 'errors.NOT_FOUND')).toBe('Introuvable.')
    expect(t('uk', 'errors.NOT_FOUND')).toBe('Не знайдено.')
    expect(t('en', 'errors.NOT_FOUND')).toBe('Not found.')
    expect(t('de', 'no.such.key')).toBe('no.such.key')
    expect(Object.keys(translationsFor('de', 'errors,field')).every((k) => k.startsWith('errors.') || k.startsWith('field.'))).toBe(true)
  })
})

const KEYS = [PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY]
const licenseDir = mkdtempSync(join(tmpdir(), 'einlass-i18n-'))
writeFileSync(join(licenseDir, 'l.json'), testLicenseText({ features: ['MULTI_LANGUAGE'] }))
const multiLanguage = loadLicense(join(licenseDir, 'l.json'), KEYS)

forEachDialect('translations without MULTI_LANGUAGE', (h) => {
  test('GET /api/public/translations/languages: German formal and informal, English, plain German', async () => {
    const r = await h().request('GET', '/api/public/translations/languages')
    expect(r.status).toBe(200)
    expect(r.body.map((l: any) => l.code)).toEqual(['de', 'de-du', 'en', 'de-ls'])
    expect(r.body[0]).toEqual({ sortOrder: 0, code: 'de', upperCode: 'DE', displayName: 'Deutsch', fullName: 'Deutsch (Sie)', className: 'lang-de', feature: null, ownTexts: true })
    // plain German (Leichte Sprache) has texts of its own now (locales/de-ls.json): offered like the others
    expect(r.body.filter((l: any) => !l.ownTexts).map((l: any) => l.code)).toEqual([])
    const ls = await h().request('GET', '/proxy/api/public/translations?part=core&language=de-ls')
    expect(ls.body.language).toBe('de-ls')
    expect(ls.body.translations['errors.NOT_FOUND']).toBe('Wir finden das leider nicht.')
    expect((await h().request('GET', '/proxy/api/public/translations/languages')).body).toEqual(r.body)
  })

  test('GET /proxy/api/public/translations: a part in a language; gated languages fall back to German', async () => {
    const en = await h().request('GET', '/proxy/api/public/translations?part=errors&language=en&agency=1')
    expect(en.status).toBe(200)
    expect(en.body.language).toBe('en')
    expect(en.body.part).toBe('errors')
    expect(en.body.translations['errors.NOT_FOUND']).toBe('Not found.')
    expect(Object.keys(en.body.translations).every((k) => k.startsWith('errors.'))).toBe(true)
    const du = await h().request('GET', '/proxy/api/public/translations?part=errors&language=de-du')
    expect(du.body.translations['errors.NOT_AUTHENTICATED']).toBe('Bitte melde dich an.')
    expect(du.body.translations['errors.NOT_FOUND']).toBe('Nicht gefunden.')
    const fr = await h().request('GET', '/proxy/api/public/translations?part=errors&language=fr')
    expect(fr.body.language).toBe('de')
    expect(fr.body.translations['errors.NOT_FOUND']).toBe('Nicht gefunden.')
    const all = await h().request('GET', '/api/public/translations?language=en')
    expect(Object.keys(all.body.translations).length).toBe(Object.keys(de).length)
  })

  test('parts by the UI\'s names: a page gets only the texts it shows (core + its own part)', async () => {
    const r = await h().request('GET', '/proxy/api/public/translations?language=en&part=core,public')
    expect([r.status, r.status === 200 ? null : r.body]).toEqual([200, null])
    const keys = Object.keys(r.body.translations)
    expect(r.body.translations['common.save']).toBe('Save')
    // the salutation's word in the guest's language (German shows the stored value itself)
    expect(r.body.translations['salutationOption.Frau']).toBe('Ms')
    expect(keys.some((k) => k.startsWith('registration.'))).toBe(true)
    // not the organiser's, not the pay page's, not the organiser-only errors
    expect(keys.some((k) => k.startsWith('organiser.') || k.startsWith('ticketing.') || k === 'errors.LAST_ADMINISTRATOR')).toBe(false)
    const pay = await h().request('GET', '/proxy/api/public/translations?language=en&part=pay')
    // the pay page also carries the selling rules' field texts (SHOP_ERRORS: the terms checkbox)
    const shop = new Set(SHOP_ERRORS.flatMap((c) => [`errors.${c}`, `field.${c}`]))
    expect(Object.keys(pay.body.translations).filter((k) => !k.startsWith('ticketing.') && !k.startsWith('payments.pay') && !shop.has(k))).toEqual([])
    expect(Object.keys(pay.body.translations).length).toBeGreaterThan(0)
  })

  test('query validation: overlong values are a FIELD_ERROR', async () => {
    const r = await h().request('GET', `/proxy/api/public/translations?language=${'x'.repeat(40)}`)
    expect(r.status).toBe(400)
    expect(r.body.errorFields).toEqual([{ field: 'language', errorType: 'TOO_LONG' }])
  })
})

forEachDialect(
  'translations with MULTI_LANGUAGE',
  (h) => {
    test('all languages of the spec table, in order', async () => {
      const r = await h().request('GET', '/api/public/translations/languages')
      expect(r.body.map((l: any) => l.code)).toEqual(LANGUAGES.map((l) => l.code))
      expect(r.body.map((l: any) => l.sortOrder)).toEqual([0, 10, 20, 30, 40, 42, 50, 60, 70, 80, 90, 100, 110, 115, 120, 130, 140, 150])
      expect(r.body.find((l: any) => l.code === 'fr').feature).toBe('MULTI_LANGUAGE')
    })

    test('a gated language is accepted and answers in its own catalogue', async () => {
      const fr = await h().request('GET', '/proxy/api/public/translations?part=errors&language=fr')
      expect(fr.body.language).toBe('fr')
      expect(fr.body.translations['errors.NOT_FOUND']).toBe('Introuvable.')
      const err = await h().request('GET', '/proxy/api/nope', { headers: { 'accept-language': 'fr-FR' } })
      expect(err.body.errorTranslation).toBe('Cette interface n’existe pas.')
      const uk = await h().request('GET', '/proxy/api/public/translations?part=errors&language=uk')
      expect(uk.body.language).toBe('uk')
      expect(uk.body.translations['errors.NOT_FOUND']).toBe('Не знайдено.')
      const langs = await h().request('GET', '/api/public/translations/languages')
      expect(langs.body.find((l: any) => l.code === 'fr').ownTexts).toBe(true)
    })
  },
  { license: multiLanguage },
)
