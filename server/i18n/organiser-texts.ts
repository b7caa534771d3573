// Organiser-entered texts in other languages (docs/languages.md, "Organiser texts"): which languages
// an organiser translates into, and how a translation lies over the German text. Pure: imported by
// the server modules that store translations (events, agreements) and by the UI.
import { availableLanguages } from './languages'

/**
 * The languages an organiser may give a translation for: those the licence offers, without German
 * and its du form (they read the organiser's German text as it is).
 */
export function translatableLanguages(features: readonly string[]): string[] {
  return availableLanguages(features)
    .map((l) => l.code)
    .filter((c) => c !== 'de' && c !== 'de-du')
}

/** The language whose organiser translation a guest reading `lang` sees (null: the German text). */
export const translationLanguage = (lang: string): string | null => (lang === 'de' || lang === 'de-du' ? null : lang)

/** The German text with each non-empty field of the translation in its place. */
export function overlay<T extends object, K extends keyof T>(german: T, translation: Partial<Record<K, T[K] | null>> | null | undefined, fields: readonly K[]): T {
  if (!translation) return german
  const out = { ...german }
  for (const f of fields) {
    const v = translation[f]
    if (typeof v === 'string' && v.trim() !== '') out[f] = v as T[K]
  }
  return out
}
