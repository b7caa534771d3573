// REQUIRE_FIELDS (guest-side.md §3 Ticket info `missingFields`, §5; docs/ticketing.md "Missing
// fields"): the registration's REQUIRED fields that hold no value as the form is now — a field the
// organiser added or made required after the guest registered, while the order still waits for its
// payment (in checkout, after a reset, or approved from the waiting list). The form engine decides
// (conditions, appearance), on the registration as stored. The pay page asks for them inline on
// step 5 (`fieldData` of proceed/additionalInformations): the basic data and the text-like kinds.
// Choices that hold places (defined values, timeslots), uploads, addresses and dates are not asked
// there (they need the registration form's machinery); they do not hold the order up.
import type { Db } from '../../../db/database'
import { bool, fromJson, toJson } from '../../../db/types'
import { fieldError } from '../../../shared/errors'
import { type FieldDef, type VisitorData, kindOf, labelOf } from '../../forms/definitions'
import { evaluate } from '../../forms/engine'
import { valueText } from '../../forms/value-text'
import { formDefinitions } from '../../forms/service'
import { formContext } from '../../registration/service'
import type { TicketOrderRow } from '../ticketing.table'

/** Kinds the pay page can ask for with a text input (or the salutation's choice). */
const INLINE_KINDS: ReadonlySet<string> = new Set(['SALUTATION', 'TEXT', 'TEXTAREA', 'PHONE', 'URL', 'NUMBER'])
const BASIC_COLUMN = { salutation: 'salutation', title: 'title', firstName: 'first_name', lastName: 'last_name' } as const

export interface MissingField {
  /** the spec's default field code (FIRST_NAME, SALUTATION …), null for the organiser's own fields */
  defaultField: string | null
  fieldId: number
  /** the key fieldData and the errors use: firstName, lastName, title, salutation, fields.12 */
  field: string
  displayName: string
  type: string
}

async function storedState(db: Db, order: Pick<TicketOrderRow, 'visitor_id' | 'event_id' | 'language'>, now: Date) {
  if (order.visitor_id == null) return null
  const v = await db.selectFrom('event_visitor').select(['id', 'salutation', 'title', 'first_name', 'last_name', 'email', 'vip']).where('id', '=', order.visitor_id).executeTakeFirst()
  const event = await db.selectFrom('event').selectAll().where('id', '=', order.event_id).executeTakeFirst()
  if (!v || !event) return null
  const defs = await formDefinitions(db, event)
  // only the visitor's own fields are read; the default form (version 0) has no custom ones
  const values = event.form_version === 0 ? [] : await db.selectFrom('visitor_field_value').select(['field_id', 'value']).where('visitor_id', '=', v.id).execute()
  const data: VisitorData = {
    salutation: v.salutation,
    title: v.title,
    firstName: v.first_name,
    lastName: v.last_name,
    email: v.email,
    fields: Object.fromEntries(values.map((x) => [String(x.field_id), fromJson<any>(x.value, null)])),
    escortPersons: [],
  }
  const form = formContext(event, now, { admin: false, vip: bool(v.vip), language: order.language })
  return { v, event, defs, data, form }
}

function missingOf(defs: FieldDef[], data: VisitorData, form: ReturnType<typeof formContext>, lang: string): MissingField[] {
  const byId = new Map(defs.map((f) => [f.id, f]))
  return evaluate(defs, data, form)
    .missing.map((p) => ({ p, f: p.fieldId != null ? byId.get(p.fieldId) : undefined }))
    .filter(({ p, f }) => f && !p.field.startsWith('escortPersons.') && f.defaultField !== 'EMAIL' && INLINE_KINDS.has(kindOf(f)))
    .map(({ p, f }) => ({ defaultField: f!.defaultField ?? null, fieldId: f!.id, field: p.field, displayName: labelOf(f!, lang), type: kindOf(f!) }))
}

/** The registration's required fields without a value that the pay page asks for. */
export async function missingFieldsOf(db: Db, order: Pick<TicketOrderRow, 'visitor_id' | 'event_id' | 'language'>, now: Date): Promise<MissingField[]> {
  const s = await storedState(db, order, now)
  return s ? missingOf(s.defs, s.data, s.form, order.language) : []
}

/**
 * Stores the guest's answers to the missing fields (step 5, in its transaction): checked by the
 * form engine as when registering; anything still missing or invalid → FIELD_ERROR with the keys.
 */
export async function fillMissingFields(trx: Db, order: Pick<TicketOrderRow, 'visitor_id' | 'event_id' | 'language'>, fieldData: Record<string, unknown>, now: Date): Promise<void> {
  const s = await storedState(trx, order, now)
  if (!s) return
  const missing = missingOf(s.defs, s.data, s.form, order.language)
  if (!missing.length) return
  const data: VisitorData = { ...s.data, fields: { ...s.data.fields } }
  for (const m of missing) {
    const given = fieldData[m.field]
    if (m.field in BASIC_COLUMN) (data as any)[m.field] = typeof given === 'string' ? given : null
    else data.fields[String(m.fieldId)] = given as any
  }
  const ev = evaluate(s.defs, data, s.form)
  const keys = new Set(missing.map((m) => m.field))
  const problems = [...ev.missing, ...ev.invalid].filter((p) => keys.has(p.field))
  if (problems.length) throw fieldError(problems.map((p) => ({ field: p.field, errorType: p.errorType })))
  const basic: Record<string, unknown> = {}
  for (const m of missing) {
    if (m.field in BASIC_COLUMN) {
      basic[BASIC_COLUMN[m.field as keyof typeof BASIC_COLUMN]] = (ev.data as any)[m.field] ?? null
      continue
    }
    const f = s.defs.find((x) => x.id === m.fieldId)!
    const value = ev.data.fields[String(m.fieldId)]
    await trx.deleteFrom('visitor_field_value').where('visitor_id', '=', s.v.id).where('field_id', '=', m.fieldId).execute()
    if (value !== undefined && value !== null) {
      await trx.insertInto('visitor_field_value').values({ visitor_id: s.v.id, event_id: s.event.id, field_id: m.fieldId, data: valueText(f, value, 'de').slice(0, 2000), value: toJson(value), asset_id: null }).execute()
    }
  }
  if (Object.keys(basic).length) await trx.updateTable('event_visitor').set(basic).where('id', '=', s.v.id).execute()
}
