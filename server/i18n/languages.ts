// Languages of agency-side.md 9.1, in order. Pure data: imported by the server and the UI.
export type LanguageFeature = 'MULTI_LANGUAGE' | null

export interface LanguageOption {
  sortOrder: number
  code: string
  upperCode: string
  displayName: string
  /** German label */
  fullName: string
  className: string
  feature: LanguageFeature
}

const L = (sortOrder: number, code: string, displayName: string, fullName: string, feature: LanguageFeature): LanguageOption => ({
  sortOrder,
  code,
  upperCode: code.toUpperCase(),
  displayName,
  fullName,
  className: `lang-${code}`,
  feature,
})

export const LANGUAGES: LanguageOption[] = [
  L(0, 'de', 'Deutsch', 'Deutsch (Sie)', null),
  L(10, 'de-du', 'Deutsch (du)', 'Deutsch (du)', null),
  L(20, 'en', 'English', 'Englisch', null),
  L(30, 'fr', 'Français', 'Französisch', 'MULTI_LANGUAGE'),
  L(40, 'uk', 'Українська', 'Ukrainisch', 'MULTI_LANGUAGE'),
  L(42, 'hu', 'Magyar', 'Ungarisch', 'MULTI_LANGUAGE'),
  L(50, 'it', 'Italiano', 'Italienisch', 'MULTI_LANGUAGE'),
  L(60, 'es', 'Español', 'Spanisch', 'MULTI_LANGUAGE'),
  L(70, 'ru', 'Русский', 'Russisch', 'MULTI_LANGUAGE'),
  L(80, 'pl', 'Polski', 'Polnisch', 'MULTI_LANGUAGE'),
  L(90, 'pt', 'Português', 'Portugiesisch', 'MULTI_LANGUAGE'),
  L(100, 'nl', 'Nederlands', 'Niederländisch', 'MULTI_LANGUAGE'),
  L(110, 'cs', 'Čeština', 'Tschechisch', 'MULTI_LANGUAGE'),
  L(115, 'el', 'Ελληνικά', 'Griechisch', 'MULTI_LANGUAGE'),
  L(120, 'ja', '日本語', 'Japanisch', 'MULTI_LANGUAGE'),
  L(130, 'zh', '中文', 'Chinesisch', 'MULTI_LANGUAGE'),
  L(140, 'tr', 'Türkçe', 'Türkisch', 'MULTI_LANGUAGE'),
  L(150, 'de-ls', 'Leichte Sprache', 'Deutsch (Leichte Sprache)', null),
]

export const DEFAULT_LANGUAGE = 'de'
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code)

/** Languages available with the given features (German is always included). */
export function availableLanguages(features: readonly string[]): LanguageOption[] {
  return LANGUAGES.filter((l) => l.feature === null || features.includes(l.feature))
}

/** Picks a supported language code from a wish (user setting, Accept-Language, query). */
export function resolveLanguage(wish: string | null | undefined, features: readonly string[] = []): string {
  if (!wish) return DEFAULT_LANGUAGE
  const allowed = availableLanguages(features).map((l) => l.code)
  for (const part of wish.split(',')) {
    const code = part.split(';')[0].trim().toLowerCase()
    if (allowed.includes(code)) return code
    const base = code.split('-')[0]
    if (allowed.includes(base)) return base
  }
  return DEFAULT_LANGUAGE
}
