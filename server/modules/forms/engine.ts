// The registration form engine, one module for browser and server: which fields are visible,
// which are missing, which are invalid, the normalised data to store and a zod schema for the
// submission. The browser runs it to guide the guest; the server runs the same code on what it
// receives, so a form the browser accepts is never refused for a different reason, and nothing the
// browser says is trusted. Pure TypeScript: no server imports. Its parts: ./values.ts (limits,
// reading values, single values), ./conditions.ts (which fields are visible); here the checks of a
// field and an escort, the messages, the whole form and its schema.
import * as z from 'zod/mini'
import { isEmailAddress } from '../../shared/email'
import { isCountryCode } from './country-codes'
import { visibleFieldIds } from './conditions'
import { COVID_STATES, type EscortData, type FieldDef, type FieldValue, type FormContext, GENDERS, SALUTATIONS, type Selection, type SlotSelection, type VisitorData, isDecoration, kindOf, labelOf } from './definitions'
import { TEXT_LIMITS, MAX_TEXT, MAX_TEXTAREA, TIME_RE, DATE_TIME_RE, DATE_MIN_YEAR, DATE_MAX_YEAR, isRecord, str, basicKey, rawValue, asList, asSelections, asSlots, isEmptyValue, addressTooLong, addressComplete, validDate, parseGermanDate, dateProblem, toE164, amountBound } from './values'

export interface Problem {
  /** the key the UI marks: firstName, fields.12, escortPersons.0.lastName */
  field: string
  fieldId: number | null
  displayName: string
  errorType: string
  params?: Record<string, string | number>
}

export interface Evaluation {
  visible: Set<number>
  /** visible REQUIRED fields without a value (and LIST own values left empty) */
  missing: Problem[]
  /** values present but not acceptable (format, range, limits) */
  invalid: Problem[]
  /** the data to store: invisible fields dropped, texts trimmed, phones in E.164 */
  data: VisitorData
}


// ---------------------------------------------------------------------------------------------
// messages

/** The per-type "required" message codes of guest-side.md 5 (texts: field.<CODE>). */
export function requiredMessage(f: Pick<FieldDef, 'type' | 'defaultField'>): string {
  switch (f.defaultField) {
    case 'SALUTATION':
      return 'SALUTATION_REQUIRED'
    case 'TITLE':
      return 'TITLE_REQUIRED'
    case 'FIRST_NAME':
      return 'FIRST_NAME_REQUIRED'
    case 'LAST_NAME':
      return 'LAST_NAME_REQUIRED'
  }
  switch (kindOf(f)) {
    case 'DATE':
      return 'DATE_REQUIRED'
    case 'DATE_TIME':
      return 'DATE_TIME_REQUIRED'
    case 'TIME':
      return 'TIME_REQUIRED'
    case 'NUMBER':
      return 'NUMBER_REQUIRED'
    case 'IMAGE':
      return 'IMAGE_REQUIRED'
    case 'FILE':
      return 'FILE_REQUIRED'
    case 'GENDER':
      return 'GENDER_REQUIRED'
    case 'COVID_STATE':
      return 'COVID_STATE_REQUIRED'
    case 'COUNTRY':
      return 'COUNTRY_REQUIRED'
    case 'LIST':
    case 'SMARTLIST':
    case 'TIMESLOT':
      return 'CHOICE_REQUIRED'
    case 'SALUTATION':
      return 'SALUTATION_REQUIRED'
    default:
      return 'REQUIRED'
  }
}

interface Ctx {
  missing: Problem[]
  invalid: Problem[]
  form: FormContext
}

function problem(list: Problem[], field: string, f: FieldDef | null, errorType: string, label: string, params?: Record<string, string | number>) {
  list.push({ field, fieldId: f?.id ?? null, displayName: label, errorType, ...(params ? { params } : {}) })
}

/** Validates and normalises one visible field; returns the value to store (undefined = none). */
function checkField(f: FieldDef, raw: unknown, key: string, c: Ctx): FieldValue | undefined {
  const kind = kindOf(f)
  const label = labelOf(f, c.form.language)
  const required = f.appearance === 'REQUIRED'
  const empty = isEmptyValue(kind, raw)
  if (kind === 'LIST') {
    const l = asList(raw)
    // An own value chosen but left empty is missing even when the field is optional.
    if (l.custom !== null && l.custom.trim() === '' && f.customValue) {
      problem(c.missing, key, f, 'OWN_VALUE_REQUIRED', label)
      return undefined
    }
  }
  if (empty) {
    if (required) problem(c.missing, key, f, requiredMessage(f), label)
    return undefined
  }
  const bad = (code: string, params?: Record<string, string | number>) => {
    problem(c.invalid, key, f, code, label, params)
    return undefined
  }
  switch (kind) {
    case 'TEXT':
    case 'URL': {
      const s = str(raw)
      return s.length > MAX_TEXT ? bad('TOO_LONG', { max: MAX_TEXT }) : s
    }
    case 'TEXTAREA': {
      const s = str(raw)
      return s.length > MAX_TEXTAREA ? bad('TOO_LONG', { max: MAX_TEXTAREA }) : s
    }
    case 'EMAIL':
    case 'DELEGATE_EMAIL': {
      const s = str(raw).toLowerCase()
      if (s.length > TEXT_LIMITS.email) return bad('TOO_LONG', { max: TEXT_LIMITS.email })
      return isEmailAddress(s) ? s : bad('INVALID_EMAIL')
    }
    case 'PHONE': {
      if (str(raw).length > TEXT_LIMITS.phone) return bad('TOO_LONG', { max: TEXT_LIMITS.phone })
      const e164 = toE164(str(raw), c.form.defaultPhoneLocale)
      return e164 ?? bad('INVALID_PHONE')
    }
    case 'SALUTATION':
      return (SALUTATIONS as readonly string[]).includes(str(raw)) ? str(raw) : bad('INVALID')
    case 'NUMBER': {
      const n = typeof raw === 'number' ? raw : Number(str(raw).replace(',', '.'))
      if (!Number.isFinite(n)) return bad('INVALID_NUMBER')
      if (n < 0) return bad('NUMBER_MIN')
      if (f.settings.max != null && n > f.settings.max) return bad('TOO_BIG')
      return n
    }
    case 'TIME':
      return TIME_RE.test(str(raw)) ? str(raw) : bad('INVALID_TIME')
    case 'DATE': {
      const p = dateProblem(str(raw), f, c.form)
      return p ? bad(p.code, p.params) : parseGermanDate(str(raw))
    }
    case 'DATE_TIME': {
      const m = DATE_TIME_RE.exec(str(raw))
      if (!m || !validDate(m[1])) return bad('INVALID_DATE')
      const y = Number(m[1].slice(0, 4))
      return y < DATE_MIN_YEAR || y > DATE_MAX_YEAR ? bad('INVALID_DATE') : str(raw).slice(0, 16)
    }
    case 'YES_NO':
      return raw === true
    case 'GENDER':
      return (GENDERS as readonly string[]).includes(str(raw)) ? str(raw) : bad('INVALID')
    case 'COVID_STATE':
      return (COVID_STATES as readonly string[]).includes(str(raw)) && !c.form.disabledCovidStates.includes(str(raw)) ? str(raw) : bad('INVALID')
    case 'COUNTRY':
      return isCountryCode(str(raw)) ? str(raw) : bad('INVALID')
    case 'LIST': {
      const l = asList(raw)
      if (l.selected.some((s) => !f.values.includes(s))) return bad('INVALID')
      if (l.custom !== null && !f.customValue) return bad('INVALID')
      const count = l.selected.length + (l.custom !== null ? 1 : 0)
      if (!f.multiple && count > 1) return bad('INVALID')
      if (l.custom !== null && l.custom.trim().length > MAX_TEXT) return bad('TOO_LONG', { max: MAX_TEXT })
      return { selected: [...new Set(l.selected)], custom: l.custom === null ? null : l.custom.trim().slice(0, MAX_TEXT) }
    }
    case 'SMARTLIST':
      return checkSmartlist(f, asSelections(raw), key, label, c)
    case 'TIMESLOT':
      return checkTimeslots(f, asSlots(raw), key, label, c)
    case 'IMAGE':
    case 'FILE': {
      const r = raw as Record<string, unknown>
      const id = Number(r.assetId)
      return Number.isInteger(id) && id > 0 ? { assetId: id, fileName: typeof r.fileName === 'string' ? r.fileName.slice(0, 255) : null } : bad('INVALID')
    }
    case 'ADDRESS':
    case 'COMPANY_ADDRESS': {
      const a = raw as Record<string, unknown>
      const over = addressTooLong(a)
      if (over) return bad('TOO_LONG', { max: over })
      const country = str(a.country) || null
      if (country && !isCountryCode(country)) return bad('INVALID')
      return { street: str(a.street) || null, streetNumber: str(a.streetNumber) || null, postCode: str(a.postCode) || null, city: str(a.city) || null, country }
    }
    case 'VIP':
      return raw === true
    default:
      return undefined
  }
}

type Refusal = [code: string, params?: Record<string, string | number>] | null

/** What every selection (defined values, timeslots) must meet: one pick unless the field is multiple,
 *  the field's total per guest, each pick a known item picked once with a whole amount of at least 1
 *  (exactly 1 without amount selection); `each` adds the kind's own checks. Undefined when refused. */
function checkPicks<S extends { amount: number }, T>(
  f: FieldDef,
  sel: S[],
  key: string,
  label: string,
  c: Ctx,
  item: (s: S) => [id: number, found: T | undefined],
  each: (s: S, found: T) => Refusal,
): S[] | undefined {
  const picked = sel.filter((s) => s.amount !== 0)
  const total = picked.reduce((a, s) => a + s.amount, 0)
  const bad = (code: string, params?: Record<string, string | number>) => {
    problem(c.invalid, key, f, code, label, params)
    return undefined
  }
  if (!f.multiple && picked.length > 1) return bad('INVALID')
  if (f.maxPerGuest >= 0 && total > f.maxPerGuest) return bad('SELECTION_LIMIT', { n: f.maxPerGuest })
  const seen = new Set<number>()
  for (const s of picked) {
    const [id, found] = item(s)
    if (found === undefined || seen.has(id) || !Number.isInteger(s.amount) || s.amount < 1) return bad('INVALID')
    seen.add(id)
    if (!f.amountSelection && s.amount !== 1) return bad('INVALID')
    const refused = each(s, found)
    if (refused) return bad(...refused)
  }
  return picked
}

function checkSmartlist(f: FieldDef, sel: Selection[], key: string, label: string, c: Ctx): Selection[] | undefined {
  const picked = checkPicks(
    f,
    sel,
    key,
    label,
    c,
    (s) => [s.fieldValueId, f.definedValues.find((d) => d.id === s.fieldValueId)],
    (s, v): Refusal => {
      // freeValue 0 = out of stock; negative = unlimited (the server re-checks when it takes places)
      if (v.freeValue === 0 || (v.freeValue > 0 && s.amount > v.freeValue)) return ['VALUE_UNAVAILABLE']
      if (s.amount > amountBound(f.maxPerGuest, v.maxPerGuest)) return ['SELECTION_LIMIT', { n: amountBound(f.maxPerGuest, v.maxPerGuest) }]
      if (v.minPerGuest > 0 && s.amount < v.minPerGuest) return ['MIN_PER_GUEST', { n: v.minPerGuest }]
      return null
    },
  )
  return picked?.map((s) => ({ fieldValueId: s.fieldValueId, amount: s.amount }))
}

function checkTimeslots(f: FieldDef, sel: SlotSelection[], key: string, label: string, c: Ctx): SlotSelection[] | undefined {
  const picked = checkPicks(
    f,
    sel,
    key,
    label,
    c,
    (s) => [s.timeslotId, f.timeslots.find((t) => t.id === s.timeslotId)],
    (s): Refusal => {
      if (s.amount > amountBound(f.maxPerGuest)) return ['SELECTION_LIMIT', { n: amountBound(f.maxPerGuest) }]
      // Outside admin mode every selected slot must be held by a reservation.
      if (!c.form.admin && !s.reservationToken) return ['REGISTRATION_VALID_UNTIL_EXPIRED']
      return null
    },
  )
  return picked?.map((s) => ({ timeslotId: s.timeslotId, amount: s.amount, ...(c.form.admin ? {} : { reservationToken: s.reservationToken }) }))
}

// ---------------------------------------------------------------------------------------------
// escort persons

/** The appearance of each escort property, from the event's ESCORT_* default fields. */
export function escortAppearance(defs: readonly FieldDef[]) {
  const of = (code: string) => defs.find((f) => f.defaultField === code)?.appearance ?? 'HIDDEN'
  return {
    name: of('ESCORT_NAME'),
    salutation: of('ESCORT_SALUTATION'),
    title: of('ESCORT_TITLE'),
    email: of('ESCORT_EMAIL'),
    company: of('ESCORT_COMPANY'),
    position: of('ESCORT_POSITION'),
    phoneNumber: of('ESCORT_PHONE_NUMBER'),
    web: of('ESCORT_WEB'),
    info: of('ESCORT_INFO'),
    birthday: of('ESCORT_BIRTHDAY'),
    covidState: of('ESCORT_COVID_STATE'),
    // The spec's source required the address by ESCORT_INFO (a copy error); einlass uses ESCORT_ADDRESS.
    address: of('ESCORT_ADDRESS'),
  }
}
export type EscortAppearance = ReturnType<typeof escortAppearance>

const ESCORT_LABEL: Record<string, string> = {
  salutation: 'Anrede',
  title: 'Titel',
  firstName: 'Vorname',
  lastName: 'Nachname',
  email: 'E-Mail-Adresse',
  company: 'Firma',
  position: 'Position',
  phoneNumber: 'Telefonnummer',
  web: 'Webseite',
  info: 'Info',
  birthday: 'Geburtstag',
  covidState: 'Covid-Status',
  address: 'Adresse',
}

function checkEscort(e: unknown, i: number, app: EscortAppearance, c: Ctx): EscortData {
  const r = isRecord(e) ? e : {}
  const out: EscortData = {}
  const key = (p: string) => `escortPersons.${i}.${p}`
  const label = (p: string) => `Begleitperson ${i + 1}: ${ESCORT_LABEL[p]}`
  const miss = (p: string, code = 'REQUIRED') => problem(c.missing, key(p), null, code, label(p))
  const bad = (p: string, code: string, params?: Record<string, string | number>) => problem(c.invalid, key(p), null, code, label(p), params)
  // Name fields: asked unless ESCORT_NAME is HIDDEN, and then first and last name are required.
  if (app.name !== 'HIDDEN') {
    out.firstName = str(r.firstName) || null
    out.lastName = str(r.lastName) || null
    // the escort's names, not the guest's own ("Ihren Vornamen" addressed the wrong person)
    if (!out.firstName) miss('firstName', 'ESCORT_FIRST_NAME_REQUIRED')
    else if (out.firstName.length > TEXT_LIMITS.name) bad('firstName', 'TOO_LONG', { max: TEXT_LIMITS.name })
    if (!out.lastName) miss('lastName', 'ESCORT_LAST_NAME_REQUIRED')
    else if (out.lastName.length > TEXT_LIMITS.name) bad('lastName', 'TOO_LONG', { max: TEXT_LIMITS.name })
  }
  const text = (p: 'title' | 'company' | 'position' | 'web' | 'info', appearance: string, max: number = MAX_TEXT) => {
    if (appearance === 'HIDDEN') return
    const s = str(r[p])
    if (!s && appearance === 'REQUIRED') miss(p, p === 'title' ? 'TITLE_REQUIRED' : 'REQUIRED')
    else if (s.length > max) bad(p, 'TOO_LONG', { max })
    else out[p] = s || null
  }
  if (app.salutation !== 'HIDDEN') {
    const s = str(r.salutation)
    if (!s && app.salutation === 'REQUIRED') miss('salutation', 'SALUTATION_REQUIRED')
    else if (s && !(SALUTATIONS as readonly string[]).includes(s)) bad('salutation', 'INVALID')
    else out.salutation = s || null
  }
  text('title', app.title)
  text('company', app.company)
  text('position', app.position)
  text('web', app.web)
  text('info', app.info, MAX_TEXTAREA)
  if (app.email !== 'HIDDEN') {
    const s = str(r.email).toLowerCase()
    if (!s && app.email === 'REQUIRED') miss('email')
    else if (s.length > TEXT_LIMITS.email) bad('email', 'TOO_LONG', { max: TEXT_LIMITS.email })
    else if (s && !isEmailAddress(s)) bad('email', 'INVALID_EMAIL')
    else out.email = s || null
  }
  if (app.phoneNumber !== 'HIDDEN') {
    const s = str(r.phoneNumber)
    if (!s && app.phoneNumber === 'REQUIRED') miss('phoneNumber')
    else if (s.length > TEXT_LIMITS.phone) bad('phoneNumber', 'TOO_LONG', { max: TEXT_LIMITS.phone })
    else if (s) {
      const e164 = toE164(s, c.form.defaultPhoneLocale)
      if (e164) out.phoneNumber = e164
      else bad('phoneNumber', 'INVALID_PHONE')
    } else out.phoneNumber = null
  }
  if (app.birthday !== 'HIDDEN') {
    const s = str(r.birthday)
    if (!s && app.birthday === 'REQUIRED') miss('birthday', 'DATE_REQUIRED')
    else if (s) {
      const p = dateProblem(s, { settings: { birthday: true }, defaultField: 'BIRTHDAY' }, c.form)
      if (p) bad('birthday', p.code)
      else out.birthday = parseGermanDate(s)
    } else out.birthday = null
  }
  if (app.covidState !== 'HIDDEN') {
    const s = str(r.covidState)
    if (!s && app.covidState === 'REQUIRED') miss('covidState', 'COVID_STATE_REQUIRED')
    else if (s && (!(COVID_STATES as readonly string[]).includes(s) || c.form.disabledCovidStates.includes(s))) bad('covidState', 'INVALID')
    else out.covidState = s || null
  }
  if (app.address !== 'HIDDEN') {
    const a = isRecord(r.address) ? r.address : {}
    if (app.address === 'REQUIRED' && !addressComplete(a)) miss('address')
    const over = addressTooLong(a)
    if (over) bad('address', 'TOO_LONG', { max: over })
    const country = str(a.country) || null
    if (country && !isCountryCode(country)) bad('address', 'INVALID')
    out.address = { street: str(a.street) || null, streetNumber: str(a.streetNumber) || null, postCode: str(a.postCode) || null, city: str(a.city) || null, country }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// the whole form

/** Evaluates a submission: visibility, missing and invalid fields, and the data to store. */
export function evaluate(defs: readonly FieldDef[], input: unknown, form: FormContext): Evaluation {
  const r = isRecord(input) ? input : {}
  const data: VisitorData = {
    salutation: typeof r.salutation === 'string' ? r.salutation : null,
    title: typeof r.title === 'string' ? r.title : null,
    firstName: typeof r.firstName === 'string' ? r.firstName : null,
    lastName: typeof r.lastName === 'string' ? r.lastName : null,
    email: typeof r.email === 'string' ? r.email : null,
    fields: isRecord(r.fields) ? (r.fields as VisitorData['fields']) : {},
    escortPersons: Array.isArray(r.escortPersons) ? (r.escortPersons as EscortData[]) : [],
  }
  const visible = visibleFieldIds(defs, data, form)
  const c: Ctx = { missing: [], invalid: [], form }
  const out: VisitorData = { salutation: null, title: null, firstName: null, lastName: null, email: null, fields: {}, escortPersons: [] }
  for (const f of [...defs].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)) {
    if (!visible.has(f.id) || isDecoration(f)) continue
    const bk = basicKey(f)
    const key = bk ?? `fields.${f.id}`
    const v = checkField(f, rawValue(f, data), key, c)
    if (v === undefined) continue
    if (bk) (out as any)[bk] = v
    else out.fields[String(f.id)] = v
  }
  const app = escortAppearance(defs)
  out.escortPersons = data.escortPersons.map((e, i) => checkEscort(e, i, app, c))
  return { visible, missing: c.missing, invalid: c.invalid, data: out }
}

/** The fields a guest still has to fill in (by id and display name). */
export function missingFields(defs: readonly FieldDef[], input: unknown, form: FormContext): Problem[] {
  return evaluate(defs, input, form).missing
}

/** Persons a registration brings: the main guest plus escorts. */
export const personsOf = (data: Pick<VisitorData, 'escortPersons'>) => 1 + (data.escortPersons?.length ?? 0)

/**
 * The zod schema of a submission to this form: the structure, then the engine's verdict as issues
 * (path = the field key, message = the error code). In admin mode missing fields do not fail the
 * schema; the caller saves them with a FIELD_ERROR_WARN_BUT_SAVED warning.
 */
export function submissionSchema(defs: readonly FieldDef[], form: FormContext) {
  const text = z.optional(z.nullable(z.string()))
  return z
    .object({
      salutation: text,
      title: text,
      firstName: text,
      lastName: text,
      email: text,
      fields: z._default(z.record(z.string(), z.unknown()), {}),
      escortPersons: z._default(z.array(z.record(z.string(), z.unknown())).check(z.maxLength(100)), []),
    })
    .check(
      z.superRefine((value, ctx) => {
        const e = evaluate(defs, value, form)
        for (const p of [...(form.admin ? [] : e.missing), ...e.invalid]) {
          ctx.addIssue({ code: 'custom', path: p.field.split('.').map((s) => (/^\d+$/.test(s) && !p.field.startsWith('fields.') ? Number(s) : s)), message: p.errorType, params: p.params })
        }
      }),
    )
}
