// Placeholders `{name}` and plurals `{n, plural, one {# Eintrag} other {# Einträge}}` (the ICU
// form, `#` is the number; "1 Einträge" and "Person(en)" read badly). The branches are the
// categories of Intl.PluralRules for the language (zero, one, two, few, many, other) and exact
// matches (=0, =1 …); `other` is required. Syntax for catalogue writers: docs/languages.md.
// Kept small: the public page's first chunk carries it (server/ui-budget.test.ts).
const B = String.raw`\s*(=\d+|zero|one|two|few|many|other)\s*\{((?:[^{}]|\{\w+\})*)\}`
export const PLURAL = new RegExp(String.raw`\{(\w+), plural,((?:${B})+)\s*\}`, 'g')
export const BRANCHES = new RegExp(B, 'g')

const rules: Record<string, Intl.PluralRules> = {}
/** The plural category of n in a language (`de-du`, `de-ls` → German rules). */
export const pluralCategory = (n: number, lang = 'de'): string => (rules[lang] ??= new Intl.PluralRules(lang.startsWith('de') ? 'de' : lang)).select(n)

export function interpolate(text: string, params?: Record<string, string | number | null | undefined>, lang = 'de'): string {
  if (!params) return text
  return text
    .replace(PLURAL, (m, k: string, body: string) => {
      const v = params[k]
      if (v == null) return m
      const b: Record<string, string> = {}
      for (const x of body.matchAll(BRANCHES)) b[x[1]] = x[2]
      return (b[`=${v}`] ?? b[pluralCategory(Number(v), lang)] ?? b.other).replace(/#/g, String(v))
    })
    .replace(/\{(\w+)\}/g, (m, k) => (params[k] == null ? m : String(params[k])))
}
