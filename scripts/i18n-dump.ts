// Prints every key of the German catalogue with its German and English text (JSON), for the
// people writing a language (docs/languages.md): `npx bun scripts/i18n-dump.ts > /tmp/dump.json`.
import { catalogues } from '../server/i18n/catalogue'
import { de } from '../server/i18n/de'

const out: Record<string, { de: string; en: string }> = {}
for (const k of Object.keys(de)) out[k] = { de: de[k], en: catalogues.en[k] }
console.log(JSON.stringify(out, null, 1))
