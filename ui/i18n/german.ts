// Runs while bundling (imported `with { type: 'macro' }`): the German strings of one UI part, picked
// from the one catalogue the server uses (server/i18n/de.ts) and inlined into the chunk that asks.
// The entry carries only `core`; each lazily loaded area registers its part when it loads, so the
// public registration page never downloads the organiser's texts (budget: server/ui-budget.test.ts).
import { de } from '../../server/i18n/de'

/** Key prefixes per part; a prefix matches the key itself and every key below it (`events.online`). */
export const PARTS = {
  /** every screen: shell, buttons, error and field messages (any server error may reach any page) */
  core: ['app', 'common', 'errors', 'field'],
  /** the public registration page and its form engine */
  public: ['registration', 'form', 'fieldType', 'gender', 'covidState', 'defaultField', 'events.online', 'events.registrationState', 'signature'],
  /** the guest pages (dashboard, self check-in, help, notifications, the no-permission page); the
   * account area and the data-change form load their parts when opened. Kept in step by
   * server/modules/guest/guest-budget.test.ts (every key the guest pages name is in core + guest). */
  guest: ['guest', 'guestPortal', 'guestAgreements', 'selfCheckin', 'help', 'report', 'notifications', 'visitorStatus', 'signature', 'nav', 'role', 'auth', 'account', 'registration', 'form', 'fieldType', 'defaultField'],
  /** the ticket order payment page /pay/{id} */
  pay: ['ticketing', 'payments.pay'],
} as const

export type PartName = keyof typeof PARTS | 'rest'

const inPart = (key: string, prefixes: readonly string[]) => prefixes.some((p) => key === p || key.startsWith(`${p}.`))

/** `rest`: everything outside `core`, for the signed-in areas (organiser, guest, account, auth). */
export function germanPart(name: PartName): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(de)) {
    if (name === 'rest' ? !inPart(k, PARTS.core) : inPart(k, PARTS[name])) out[k] = v
  }
  return out
}
