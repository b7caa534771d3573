// The catalogues of server/i18n/locales/<code>.json (docs/languages.md), imported as files: the
// compiled binary embeds them (STACK.md trap 6) and a language is read and parsed only when first
// asked for. Add a language with one line (server/i18n/catalogues.test.ts checks the list).
import cs from './cs.json' with { type: 'file' }
import deLs from './de-ls.json' with { type: 'file' }
import el from './el.json' with { type: 'file' }
import es from './es.json' with { type: 'file' }
import fr from './fr.json' with { type: 'file' }
import hu from './hu.json' with { type: 'file' }
import it from './it.json' with { type: 'file' }
import ja from './ja.json' with { type: 'file' }
import nl from './nl.json' with { type: 'file' }
import pl from './pl.json' with { type: 'file' }
import pt from './pt.json' with { type: 'file' }
import ru from './ru.json' with { type: 'file' }
import tr from './tr.json' with { type: 'file' }
import uk from './uk.json' with { type: 'file' }
import zh from './zh.json' with { type: 'file' }

// (TypeScript types a JSON import as its content; with type 'file' Bun hands over the path)
const path = (p: unknown) => p as string

export const LOCALE_FILES: Record<string, string> = {
  cs: path(cs),
  'de-ls': path(deLs),
  el: path(el),
  es: path(es),
  fr: path(fr),
  hu: path(hu),
  it: path(it),
  ja: path(ja),
  nl: path(nl),
  pl: path(pl),
  pt: path(pt),
  ru: path(ru),
  tr: path(tr),
  uk: path(uk),
  zh: path(zh),
}
