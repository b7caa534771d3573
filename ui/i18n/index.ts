// UI texts: German is bundled (German first), in parts: the entry carries `core`, each area registers
// its own part when its chunk loads (./german.ts). Other languages come from the server's catalogue,
// by the same parts: a guest downloads only the parts of the pages opened, in their language.
import { useEffect, useState } from 'preact/hooks'
import { interpolate } from '../../server/i18n/interpolate'
import { germanPart } from './german' with { type: 'macro' }

type Cat = Record<string, string>
let language = 'de'
// filled by assignment: Bun's minifier copies a macro's object into every use of a const it initialises
const de: Cat = {}
Object.assign(de, germanPart('core'))
/** The chosen language's texts of the loaded parts, from the server; empty for German. */
let translations: Cat = {}
/** parts whose German is loaded (core and the registered areas'): a language fetches these */
const parts = ['core']
/** the language asked for (a fetch may still be on its way) */
let wanted = 'de'
const listeners = new Set<() => void>()

export const currentLanguage = () => language

export function t(key: string, params?: Record<string, string | number | null | undefined>): string {
  return interpolate(translations[key] ?? de[key] ?? key, params, language)
}

const fetchParts = (code: string, names: string[]): Promise<{ language: string; translations: Cat } | null> =>
  fetch(`/proxy/api/public/translations?language=${encodeURIComponent(code)}&part=${names}`).then((r) => (r.ok ? r.json() : null))
const notify = () => listeners.forEach((l) => l())

/** The German text whatever the chosen language (for names stored in the form's base language). */
export const germanText = (key: string): string => de[key] ?? key

/** Called once by each area's part module (./part-*.ts) as its chunk loads. */
export function registerGerman(part: Cat, name: string) {
  Object.assign(de, part)
  const code = wanted
  if (!parts.includes(name) && parts.push(name) && code !== 'de')
    void fetchParts(code, [name]).then((body) => body && wanted === code && (Object.assign(translations, body.translations), notify()))
}

/** Translates a field error code (zod message or server errorType). */
export const fieldMessage = (code: string | undefined) => (code ? t(`field.${code}`) !== `field.${code}` ? t(`field.${code}`) : t(`errors.${code}`) !== `errors.${code}` ? t(`errors.${code}`) : t('field.INVALID') : '')

export async function setLanguage(code: string) {
  if (code === wanted) return
  wanted = code
  if (code === 'de') translations = {}
  else {
    const body = await fetchParts(code, parts)
    if (!body || wanted !== code) return
    translations = body.translations
    code = wanted = body.language
  }
  language = code
  document.documentElement.lang = code.split('-')[0]
  try {
    localStorage.setItem('einlass.language', code)
  } catch {}
  notify()
}

/** Stores a language the person chose (set by the signed-in areas: the choice goes to the user). */
let saver: ((code: string) => Promise<void>) | null = null
export function setLanguageSaver(f: ((code: string) => Promise<void>) | null) {
  saver = f
}

/** A language chosen by the person (footer switcher): shown at once and kept for a signed-in user. */
export async function chooseLanguage(code: string) {
  await setLanguage(code)
  if (saver) await saver(code).catch(() => {})
}

/** Languages worth offering: a German variant without texts of its own would read exactly like German. */
export const offeredLanguages = <L extends { code: string; ownTexts?: boolean }>(list: readonly L[]): L[] => list.filter((l) => l.ownTexts !== false || !l.code.startsWith('de'))

export function initialLanguage(): string {
  try {
    return localStorage.getItem('einlass.language') ?? 'de'
  } catch {
    return 'de'
  }
}

/** Re-renders the caller when the language changes. */
export function useLanguage(): string {
  const [, force] = useState(0)
  useEffect(() => {
    const l = () => force((n) => n + 1)
    listeners.add(l)
    return () => void listeners.delete(l)
  }, [])
  return language
}
