// The form engine's values (engine.ts): the length limits of every text, reading a field's value
// from the submitted data, and checking single values (dates, ages, phone numbers, amounts). Pure
// TypeScript: no server imports, the browser runs it too.
import { MAX_EMAIL } from '../../shared/email'
import { BASIC_CODES, BASIC_KEY, DEFAULT_AMOUNT_BOUND, type FieldDef, type FieldKind, type FormContext, type ListValue, type Selection, type SlotSelection, type VisitorData, isEscortCode, kindOf } from './definitions'

/**
 * Length limits of every text a form takes (characters), checked before any pattern looks at the
 * value; the form shows them (maxlength on the input, "Höchstens N Zeichen." when over). Documented
 * in docs/security.md (Limits and rate limits).
 */
export const TEXT_LIMITS = {
  text: 500,
  textarea: 5000,
  email: MAX_EMAIL,
  phone: 40,
  name: 100,
  street: 200,
  streetNumber: 20,
  postCode: 20,
  city: 120,
} as const
/** The limit of each part of an ADDRESS answer (1–2 MB were stored before). */
export const ADDRESS_LIMITS = { street: TEXT_LIMITS.street, streetNumber: TEXT_LIMITS.streetNumber, postCode: TEXT_LIMITS.postCode, city: TEXT_LIMITS.city, country: 3 } as const
/** aliases the form inputs read their maxlength from */
export const MAX_TEXT = TEXT_LIMITS.text
export const MAX_TEXTAREA = TEXT_LIMITS.textarea
export const MAX_ESCORT_NAME = TEXT_LIMITS.name
/** the registration call's bound for salutation, title, names and e-mail (registration/model.ts) */
export const MAX_BASIC_TEXT = TEXT_LIMITS.text
export const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/
export const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/
export const BIRTHDAY_MIN = '1899-01-01'
/** the date picker's range (guest-side.md 9) */
export const DATE_MIN_YEAR = 1900
export const DATE_MAX_YEAR = 2040


// ---------------------------------------------------------------------------------------------
// reading values

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** Whether the field takes part in the guest form (escort settings and VIP only configure). */
export function isFormField(f: FieldDef, admin = false): boolean {
  if (isEscortCode(f.defaultField)) return false
  if (f.defaultField === 'VIP') return admin
  return true
}

export function basicKey(f: FieldDef): keyof VisitorData | null {
  return f.defaultField && (BASIC_CODES as readonly string[]).includes(f.defaultField) ? BASIC_KEY[f.defaultField as (typeof BASIC_CODES)[number]] : null
}

/** The raw value of a field in the visitor data (basic data lives outside `fields`). */
export function rawValue(f: FieldDef, data: VisitorData): unknown {
  const k = basicKey(f)
  if (k) return data[k]
  return data.fields?.[String(f.id)]
}

export function asList(v: unknown): ListValue {
  if (isRecord(v)) {
    const selected = Array.isArray(v.selected) ? v.selected.filter((s): s is string => typeof s === 'string') : []
    const custom = typeof v.custom === 'string' ? v.custom : null
    return { selected, custom }
  }
  if (typeof v === 'string' && v) return { selected: [v], custom: null }
  if (Array.isArray(v)) return { selected: v.filter((s): s is string => typeof s === 'string'), custom: null }
  return { selected: [], custom: null }
}

export function asSelections(v: unknown): Selection[] {
  if (!Array.isArray(v)) return []
  return v.filter(isRecord).map((s) => ({ fieldValueId: Number(s.fieldValueId), amount: s.amount === undefined ? 1 : Number(s.amount) }))
}

export function asSlots(v: unknown): SlotSelection[] {
  if (!Array.isArray(v)) return []
  return v
    .filter(isRecord)
    .map((s) => ({ timeslotId: Number(s.timeslotId), amount: s.amount === undefined ? 1 : Number(s.amount), reservationToken: typeof s.reservationToken === 'string' ? s.reservationToken : null }))
}

/** Empty per kind (guest-side.md 5: a field is missing when its value is empty). */
export function isEmptyValue(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case 'NUMBER':
      return v === null || v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v))
    case 'YES_NO':
    case 'VIP':
      return typeof v !== 'boolean'
    case 'LIST': {
      const l = asList(v)
      return l.selected.length === 0 && (l.custom === null || l.custom.trim() === '')
    }
    case 'SMARTLIST':
      return asSelections(v).reduce((a, s) => a + (s.amount > 0 ? s.amount : 0), 0) === 0
    case 'TIMESLOT':
      return asSlots(v).reduce((a, s) => a + (s.amount > 0 ? s.amount : 0), 0) === 0
    case 'IMAGE':
    case 'FILE':
      return !isRecord(v) || !(Number(v.assetId) > 0)
    case 'ADDRESS':
    case 'COMPANY_ADDRESS':
      return !isRecord(v) || !addressComplete(v)
    default:
      return str(v) === ''
  }
}

/** The limit of the first part of an address that is longer than its limit, or 0. */
export function addressTooLong(a: Record<string, unknown>): number {
  for (const [k, max] of Object.entries(ADDRESS_LIMITS)) if (str(a[k]).length > max) return max
  return 0
}

/** An address counts as given with street, postCode and city (the lockBasicData rule). */
export function addressComplete(a: Record<string, unknown> | null | undefined): boolean {
  return !!a && str(a.street) !== '' && str(a.postCode) !== '' && str(a.city) !== ''
}

// ---------------------------------------------------------------------------------------------
// single values

export function validDate(s: string): boolean {
  const m = DATE_RE.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const dt = new Date(Date.UTC(y, mo - 1, d))
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/** Full years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [y, m, d] = day.split('-').map(Number)
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0)
}

/** DD.MM.YYYY (the birthday mask) → YYYY-MM-DD; other input is returned unchanged. */
export function parseGermanDate(s: string): string {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s.trim())
  if (!m) return s.trim()
  return `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`
}

/** YYYY-MM-DD → DD.MM.YYYY */
export function formatGermanDate(s: string | null | undefined): string {
  const m = s ? DATE_RE.exec(s) : null
  return m ? `${m[3]}.${m[2]}.${m[1]}` : (s ?? '')
}

/** A date value: problem code or null. Birthdays: 1899-01-01 … today, ages relative to the event date. */
export function dateProblem(value: string, f: Pick<FieldDef, 'settings' | 'defaultField'>, ctx: Pick<FormContext, 'now' | 'eventStart'>): { code: string; params?: Record<string, number> } | null {
  const v = parseGermanDate(value)
  if (!validDate(v)) return { code: 'INVALID_DATE' }
  const birthday = f.settings.birthday || f.defaultField === 'BIRTHDAY'
  if (birthday) {
    if (v < BIRTHDAY_MIN || v > isoDay(ctx.now)) return { code: 'INVALID_DATE' }
    const eventDay = ctx.eventStart.slice(0, 10)
    const age = ageOn(v, eventDay)
    if (f.settings.minAge != null && age < f.settings.minAge) return { code: 'MIN_AGE', params: { n: f.settings.minAge } }
    if (f.settings.maxAge != null && age > f.settings.maxAge) return { code: 'MAX_AGE', params: { n: f.settings.maxAge } }
    return null
  }
  const y = Number(v.slice(0, 4))
  if (y < DATE_MIN_YEAR || y > DATE_MAX_YEAR) return { code: 'INVALID_DATE' }
  return null
}

type PhoneParser = (value: string, defaultLocale: string) => string | null
let phoneParser: PhoneParser | null = null

/** Installs the phone number reader (forms/phone.ts): the server at start, the browser on demand. */
export function installPhoneParser(p: PhoneParser) {
  phoneParser = p
}
export const phoneParserInstalled = () => phoneParser !== null

/** A phone number in E.164, or null when it is not a valid number (region: the event's default). */
export function toE164(value: string, defaultLocale: string): string | null {
  if (!phoneParser) throw new Error('phone parser not installed (import forms/phone and call installPhoneParser)')
  return phoneParser(value, defaultLocale)
}

/** Whether a form asks for a phone number anywhere (then the browser loads the phone reader first). */
export function formNeedsPhone(defs: readonly FieldDef[]): boolean {
  return defs.some((f) => f.appearance !== 'HIDDEN' && (kindOf(f) === 'PHONE' || f.defaultField === 'ESCORT_PHONE_NUMBER'))
}

/** Whether the form shows a country choice (a country or address field, the escorts' address): the browser then loads the country table. */
export function formNeedsCountries(defs: readonly FieldDef[]): boolean {
  return defs.some((f) => f.appearance !== 'HIDDEN' && (['COUNTRY', 'ADDRESS', 'COMPANY_ADDRESS'].includes(kindOf(f)) || f.defaultField === 'ESCORT_ADDRESS'))
}

/** The most a guest may pick of one defined value or timeslot. */
export function amountBound(fieldMax: number, valueMax = -1, free = -1): number {
  let bound = valueMax >= 0 ? valueMax : fieldMax >= 0 ? fieldMax : DEFAULT_AMOUNT_BOUND
  if (free >= 0) bound = Math.min(bound, free)
  return bound
}
