import { readFileSync } from 'node:fs'
import * as agencyUsers from '../modules/agency-users/messages'
import * as agreements from '../modules/agreements/messages'
import * as audit from '../modules/audit/messages'
import * as checkin from '../modules/checkin/messages'
import * as documents from '../modules/documents/messages'
import * as events from '../modules/events/messages'
import * as forms from '../modules/forms/messages'
import * as organiser from '../modules/events/organiser-messages'
import * as guest from '../modules/guest/messages'
import * as guestPortal from '../modules/guest/portal-messages'
import * as guestNotifications from '../modules/guest-notifications/messages'
import * as help from '../modules/help/messages'
import * as identity from '../modules/identity/messages'
import * as sso from '../modules/identity/sso/messages'
import * as invoices from '../modules/invoices/messages'
import * as bank from '../modules/bank/messages'
import * as license from '../modules/license/messages'
import * as mail from '../modules/mail/messages'
import * as notificationSettings from '../modules/notification-settings/messages'
import * as registration from '../modules/registration/messages'
import * as seating from '../modules/seating/messages'
import * as visitors from '../modules/visitors/messages'
import * as ticketing from '../modules/ticketing/messages'
import * as orderDeadline from '../modules/ticketing/deadline-messages'
import * as payments from '../modules/payments/messages'
import * as media from '../modules/media/messages'
import { de } from './de'
import { interpolate } from './interpolate'
import { DEFAULT_LANGUAGE } from './languages'
import { LOCALE_FILES } from './locales'
import { PART_NAMES, type PartName, pickPart } from './parts'
import * as common from './messages/common'

type Cat = Record<string, string>
/** Every module's messages; de-du and en fall back to de key by key. */
export const PARTS: Array<{ deDu: Partial<Cat>; en: Partial<Cat> }> = [
  common,
  identity,
  sso,
  events,
  registration,
  forms,
  guest,
  guestPortal,
  mail,
  license,
  visitors,
  checkin,
  agencyUsers,
  audit,
  notificationSettings,
  agreements,
  organiser,
  invoices,
  bank,
  seating,
  guestNotifications,
  help,
  documents,
  ticketing,
  orderDeadline,
  payments,
  media,
]

const merge = (pick: (p: (typeof PARTS)[number]) => Partial<Cat>): Cat => Object.assign({}, de, ...PARTS.map(pick))

export const catalogues: Record<string, Cat> = {
  de,
  'de-du': merge((p) => p.deDu),
  en: merge((p) => p.en),
}

/** Whether a language has texts of its own (module messages or a locales/<code>.json). */
export const hasCatalogue = (lang: string): boolean => lang in catalogues || lang in LOCALE_FILES

/** A locales/<code>.json, read and parsed when first asked for; a key it lacks reads German. */
function loadLocale(lang: string): Cat | undefined {
  const path = LOCALE_FILES[lang]
  if (!path) return undefined
  const own = JSON.parse(readFileSync(path, 'utf8')) as Cat
  const cat = Object.assign({}, de, own)
  catalogues[lang] = cat
  return cat
}

/** Languages without a catalogue of their own (MULTI_LANGUAGE ones not written yet) fall back to German. */
export function catalogueFor(lang: string): Cat {
  return catalogues[lang] ?? loadLocale(lang) ?? catalogues[DEFAULT_LANGUAGE]
}

export { interpolate }

export function t(lang: string, key: string, params?: Record<string, string | number | null | undefined>): string {
  const text = catalogueFor(lang)[key] ?? de[key] ?? key
  return interpolate(text, params, lang)
}

/**
 * Keys of one part or several, comma-separated: the UI's parts by name (core, public, guest, pay,
 * seats, rest: server/i18n/parts.ts), or key prefixes (`errors`, `events.online`).
 */
export function translationsFor(lang: string, part?: string | null): Cat {
  const cat = catalogueFor(lang)
  if (!part) return cat
  const names = part.split(',').map((p) => p.trim())
  if (names.every((n) => (PART_NAMES as readonly string[]).includes(n))) return Object.assign({}, ...names.map((n) => pickPart(cat, n as PartName, true)))
  const prefixes = part.split(',').map((p) => `${p.trim()}.`)
  const out: Cat = {}
  for (const [k, v] of Object.entries(cat)) if (prefixes.some((p) => k.startsWith(p))) out[k] = v
  return out
}
