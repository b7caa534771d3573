// Runs while bundling (imported `with { type: 'macro' }`): the German strings of one UI part, picked
// from the one catalogue the server uses (server/i18n/de.ts) and inlined into the chunk that asks.
// The entry carries only `core`; each lazily loaded area registers its part when it loads, so the
// public registration page never downloads the organiser's texts (budget: server/ui-budget.test.ts).
// The parts themselves (server/i18n/parts.ts) are shared with the server, which serves every other
// language by the same parts.
import { de } from '../../server/i18n/de'
import { type PartName, pickPart } from '../../server/i18n/parts'

export { ANSWER_TEXT_ERRORS, ORGANISER_ONLY_ERRORS, PARTS, type PartName } from '../../server/i18n/parts'

export function germanPart(name: PartName): Record<string, string> {
  return pickPart(de, name)
}
