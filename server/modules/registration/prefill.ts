// What the registration form shows a known guest before they register: the basic data of their
// account that the form locks (lockBasicData) and the organiser's entry for them (an invitation).
import type { Db } from '../../db/database'
import { fromJson } from '../../db/types'
import type { EventRow } from '../events/events.table'
import { type FieldDef, kindOf } from '../forms/definitions'
import { addressComplete } from '../forms/values'
import type { VisitorStatus } from '../visitors/visitors.table'

/** Values of the known guest's account that the form locks (lockBasicData; only valid values). */
export async function lockedBasicData(db: Db, event: EventRow, defs: FieldDef[], userId: number): Promise<{ values: { fields?: Record<string, unknown>; [key: string]: unknown }; locked: string[] }> {
  const user = await db.selectFrom('app_user').select(['id', 'email']).where('id', '=', userId).executeTakeFirst()
  if (!user) return { values: {}, locked: [] }
  const account = await db.selectFrom('account').selectAll().where('user_id', '=', userId).where('agency_id', '=', event.agency_id).orderBy('id').executeTakeFirst()
  const values: { fields: Record<string, unknown>; [key: string]: unknown } = { fields: {} }
  const locked: string[] = []
  const put = (key: string, v: unknown, valid: boolean) => {
    if (!valid) return
    if (key.startsWith('fields.')) values.fields[key.slice(7)] = v
    else values[key] = v
    locked.push(key)
  }
  const s = (v: string | null | undefined) => (v ?? '').trim()
  for (const f of defs) {
    if (f.appearance === 'HIDDEN') continue
    const key = `fields.${f.id}`
    switch (f.defaultField) {
      case 'EMAIL':
        put('email', user.email, true)
        break
      case 'SALUTATION':
        put('salutation', account?.salutation, !!s(account?.salutation))
        break
      case 'TITLE':
        put('title', account?.title, !!s(account?.title))
        break
      case 'FIRST_NAME':
        put('firstName', account?.first_name, !!s(account?.first_name))
        break
      case 'LAST_NAME':
        put('lastName', account?.last_name, !!s(account?.last_name))
        break
      case 'COMPANY':
        put(key, account?.company, !!s(account?.company))
        break
      case 'POSITION':
        put(key, account?.position, !!s(account?.position))
        break
      case 'PHONE_NUMBER':
        put(key, account?.phone_number, !!s(account?.phone_number))
        break
      case 'MOBILE_PHONE_NUMBER':
        put(key, account?.mobile_phone_number, !!s(account?.mobile_phone_number))
        break
      case 'BIRTHDAY':
        put(key, account?.birthday, !!s(account?.birthday))
        break
      case 'GENDER':
        put(key, account?.gender, !!s(account?.gender))
        break
      case 'ADDRESS': {
        const a = { street: account?.street, streetNumber: account?.street_number, postCode: account?.post_code, city: account?.city, country: account?.country }
        // An address counts as valid with street, postCode and city.
        put(key, a, addressComplete(a))
        break
      }
    }
  }
  return { values, locked }
}

/** Entries of the organiser a guest confirms through the form (issue 10, item 5). */
const PREFILL_STATUSES: readonly VisitorStatus[] = ['INVITED', 'PENDING', 'ADDED', 'OPEN']

/**
 * What the organiser knows of the guest's own entry for this event (an invitation): basic data,
 * the answers already stored (not timeslots or uploads: those need the guest's own reservation or
 * file) and the escorts; the e-mail is locked, since the registration becomes that entry by it.
 */
export async function invitationPrefill(db: Db, event: EventRow, defs: FieldDef[], userId: number) {
  const v = await db.selectFrom('event_visitor').selectAll().where('event_id', '=', event.id).where('user_id', '=', userId).where('status', 'in', PREFILL_STATUSES).orderBy('id').executeTakeFirst()
  if (!v) return null
  const [values, escorts] = await Promise.all([
    db.selectFrom('visitor_field_value').select(['field_id', 'value']).where('visitor_id', '=', v.id).execute(),
    db.selectFrom('escort_person').selectAll().where('visitor_id', '=', v.id).orderBy('number').execute(),
  ])
  const byId = new Map(defs.map((f) => [f.id, f]))
  const fields: Record<string, unknown> = {}
  for (const r of values) {
    const f = byId.get(r.field_id)
    if (!f || f.appearance === 'HIDDEN' || ['TIMESLOT', 'IMAGE', 'FILE'].includes(kindOf(f))) continue
    fields[String(r.field_id)] = fromJson<unknown>(r.value, null)
  }
  const codeField = (code: string) => defs.find((f) => f.defaultField === code && f.appearance !== 'HIDDEN')
  for (const [code, value] of [['COMPANY', v.company], ['POSITION', v.position], ['PHONE_NUMBER', v.phone_number]] as const) {
    const f = codeField(code)
    if (f && value && fields[String(f.id)] === undefined) fields[String(f.id)] = value
  }
  const opt = (x: string | null) => x ?? undefined
  return {
    visitorId: v.id,
    status: v.status,
    values: {
      salutation: opt(v.salutation),
      title: opt(v.title),
      firstName: opt(v.first_name),
      lastName: opt(v.last_name),
      email: opt(v.email),
      fields,
      escortPersons: escorts.map((e) => ({ salutation: opt(e.salutation), title: opt(e.title), firstName: opt(e.first_name), lastName: opt(e.last_name), email: opt(e.email), company: opt(e.company), position: opt(e.position) })),
    },
  }
}
