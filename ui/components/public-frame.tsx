// The plain public frame (public event page, login, password pages) with the footer and its
// language switcher. Kept apart from ./layout: the public page must not pull in the signed-in
// navigation (budget: server/ui-budget.test.ts).
import type { ComponentChildren } from 'preact'
import { chooseLanguage, currentLanguage, offeredLanguages, useLanguage } from '../i18n'
import { useResource } from './hooks'

interface LanguageOption {
  code: string
  /** the language's own name (Deutsch, English …) */
  displayName: string
  /** German name (Deutsch (Sie), Deutsch (du) …) */
  fullName: string
  sortOrder: number
  ownTexts?: boolean
}

/**
 * The switcher's order (guest-side.md 9): German always, the default (German) on top, then the first
 * languages by their sort order.
 */
export function switcherLanguages(data: readonly LanguageOption[]): LanguageOption[] {
  const sorted = [...data].sort((a, b) => a.sortOrder - b.sortOrder)
  const de = sorted.find((l) => l.code === 'de') ?? { code: 'de', displayName: 'Deutsch', fullName: 'Deutsch (Sie)', sortOrder: -1 }
  return [de, ...sorted.filter((l) => l.code !== 'de')]
}

/** Buttons for up to 4 languages; above that a dropdown with German and the first ones on top. */
export function LanguageSwitcher() {
  useLanguage()
  const { data: all } = useResource<LanguageOption[]>('/proxy/api/public/translations/languages')
  const data = all && offeredLanguages(all)
  if (!data || data.length < 2) return null
  const lang = currentLanguage()
  const list = switcherLanguages(data)
  if (list.length <= 4) {
    return (
      <nav class="lang-switch" aria-label="Sprache / Language">
        {list.map((l) => (
          <button key={l.code} type="button" lang={l.code.split('-')[0]} title={l.fullName} class={`lang-btn ${l.code === lang ? 'active' : ''}`} aria-pressed={l.code === lang} onClick={() => void chooseLanguage(l.code)}>
            {l.displayName}
          </button>
        ))}
      </nav>
    )
  }
  return (
    <label class="lang-select">
      <span class="sr-only">Sprache / Language</span>
      <select value={lang} onChange={(e) => void chooseLanguage((e.target as HTMLSelectElement).value)}>
        {list.map((l) => (
          <option key={l.code} value={l.code}>
            {l.displayName}
          </option>
        ))}
      </select>
    </label>
  )
}

export function Footer() {
  return (
    <footer class="footer">
      <span>einlass · Server-Edition</span>
      <LanguageSwitcher />
    </footer>
  )
}

export function PublicFrame({ children, footer = true, header }: { children: ComponentChildren; footer?: boolean; header?: ComponentChildren }) {
  useLanguage()
  return (
    <div class="public">
      {header}
      <main class="content narrow" id="main">
        {children}
      </main>
      {footer && <Footer />}
    </div>
  )
}
