// UI texts: German is bundled (German first); other languages come from the server's catalogue.
import { useEffect, useState } from 'preact/hooks'
import { de } from '../../server/i18n/de'
import { interpolate } from '../../server/i18n/interpolate'

type Cat = Record<string, string>
let language = 'de'
let catalogue: Cat = de
const listeners = new Set<() => void>()

export const currentLanguage = () => language

export function t(key: string, params?: Record<string, string | number | null | undefined>): string {
  return interpolate(catalogue[key] ?? de[key] ?? key, params)
}

/** Translates a field error code (zod message or server errorType). */
export const fieldMessage = (code: string | undefined) => (code ? t(`field.${code}`) !== `field.${code}` ? t(`field.${code}`) : t(`errors.${code}`) !== `errors.${code}` ? t(`errors.${code}`) : t('field.INVALID') : '')

export async function setLanguage(code: string) {
  if (code === language) return
  if (code === 'de') catalogue = de
  else {
    const res = await fetch(`/proxy/api/public/translations?language=${encodeURIComponent(code)}`)
    if (!res.ok) return
    const body = (await res.json()) as { language: string; translations: Cat }
    catalogue = { ...de, ...body.translations }
    code = body.language
  }
  language = code
  document.documentElement.lang = code.split('-')[0]
  try {
    localStorage.setItem('einlass.language', code)
  } catch {}
  for (const l of listeners) l()
}

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
