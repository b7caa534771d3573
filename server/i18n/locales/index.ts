// The catalogues of server/i18n/locales/<code>.json (docs/languages.md), imported as files: the
// compiled binary embeds them (STACK.md trap 6) and a language is read and parsed only when first
// asked for. Add a language with one line (server/i18n/catalogues.test.ts checks the list).
import deLs from './de-ls.json' with { type: 'file' }
import fr from './fr.json' with { type: 'file' }

// (TypeScript types a JSON import as its content; with type 'file' Bun hands over the path)
const path = (p: unknown) => p as string

export const LOCALE_FILES: Record<string, string> = {
  'de-ls': path(deLs),
  fr: path(fr),
}
