// UI texts: German is bundled (German first), in parts: the entry carries `core`, each area registers
// its own part when its chunk loads (./german.ts). Other languages come from the server's catalogue.
import { useEffect, useState } from 'preact/hooks'
import { interpolate } from '../../server/i18n/interpolate'
import { germanPart } from './german' with { type: 'macro' }

type Cat = Record<string, string>
let language = 'de'
// filled by assignment: Bun's minifier copies a macro's object into every use of a const it initialises
const de: Cat = {}
Object.assign(de, germanPart('core'))
/** The chosen language's full catalogue from the server; empty for German. */
let translations: Cat = {}
const listeners = new Set<() => void>()

export const currentLanguage = () => language

export function t(key: string, params?: Record<string, string | number | null | undefined>): string {
  return interpolate(translations[key] ?? de[key] ?? key, params)
}

/** The German text whatever the chosen language (for names stored in the form's base language). */
export const germanText = (key: string): string => de[key] ?? key

/** Called once by each area's part module (./part-*.ts) as its chunk loads. */
export function registerGerman(part: Cat) {
  Object.assign(de, part)
}

/** Translates a field error code (zod message or server errorType). */
export const fieldMessage = (code: string | undefined) => (code ? t(`field.${code}`) !== `field.${code}` ? t(`field.${code}`) : t(`errors.${code}`) !== `errors.${code}` ? t(`errors.${code}`) : t('field.INVALID') : '')

export async function setLanguage(code: string) {
  if (code === language) return
  if (code === 'de') translations = {}
  else {
    const res = await fetch(`/proxy/api/public/translations?language=${encodeURIComponent(code)}`)
    if (!res.ok) return
    const body = (await res.json()) as { language: string; translations: Cat }
    translations = body.translations
    code = body.language
  }
  language = code
  document.documentElement.lang = code.split('-')[0]
  try {
    localStorage.setItem('einlass.language', code)
  } catch {}
  for (const l of listeners) l()
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
