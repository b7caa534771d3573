// Placeholders `{name}` and plurals `{n, plural, one {# Eintrag} other {# Einträge}}` (the ICU
// form, `#` is the number; "1 Einträge" and "Person(en)" read badly). `one` is exactly 1, which is
// right for German and English; other languages fall back to the same rule.
const PLURAL = /\{(\w+), plural, one \{((?:[^{}]|\{\w+\})*)\} other \{((?:[^{}]|\{\w+\})*)\}\}/g

export function interpolate(text: string, params?: Record<string, string | number | null | undefined>): string {
  if (!params) return text
  const plural = text.includes(', plural,')
    ? text.replace(PLURAL, (m, k: string, one: string, other: string) => {
        const v = params[k]
        if (v == null) return m
        const n = Number(v)
        return (n === 1 ? one : other).replace(/#/g, String(v))
      })
    : text
  return plural.replace(/\{(\w+)\}/g, (m, k) => (params[k] == null ? m : String(params[k])))
}
