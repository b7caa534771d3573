// Step 5 of the pay page (guest-side.md §4, §5; docs/ticketing.md, "Step 5: escort persons"): the
// escort persons the tickets still lack, asked with the event's ESCORT_* settings and checked by the
// form engine like the registration form. What the registration form stored stays: an escort the
// page sends with its `number` is updated in place, and only in the properties the event asks for
// (a hidden property is neither shown nor overwritten); new ones are numbered on. Never deleted and
// inserted again.
import type { Db } from '../../../db/database'
import { AppError, fieldError } from '../../../shared/errors'
import type { FieldError } from '../../../shared/validation'
import type { EventRow } from '../../events/events.table'
import type { EscortData, FieldDef } from '../../forms/definitions'
import { type EscortAppearance, escortAppearance, evaluate } from '../../forms/engine'
import { formContext } from '../../registration/service'
import { escortColumns } from '../../visitors/escort-columns'
import { type EscortColumns, writeEscorts } from '../../visitors/escort-write'
import type { EscortPersonRow } from '../../visitors/visitors.table'

/** escort_person columns per escort property of the event's settings */
const COLUMNS: Record<keyof EscortAppearance, Array<keyof EscortColumns>> = {
  name: ['first_name', 'last_name'],
  salutation: ['salutation'],
  title: ['title'],
  email: ['email'],
  company: ['company'],
  position: ['position'],
  phoneNumber: ['phone_number'],
  web: ['web'],
  info: ['info'],
  birthday: ['birthday'],
  covidState: ['covid_state'],
  address: ['street', 'street_number', 'post_code', 'city', 'country'],
}

/** The spec's Escort person as the pay page shows it for editing (no database id: the number names it). */
export function payEscortDto(e: EscortPersonRow) {
  return {
    number: e.number,
    salutation: e.salutation,
    title: e.title,
    firstName: e.first_name ?? '',
    lastName: e.last_name ?? '',
    email: e.email,
    company: e.company,
    position: e.position,
    phoneNumber: e.phone_number,
    web: e.web,
    info: e.info,
    birthday: e.birthday,
    covidState: e.covid_state,
    address: { street: e.street, streetNumber: e.street_number, postCode: e.post_code, city: e.city, country: e.country },
  }
}

/**
 * Checks the escorts of step 5 like the registration form (the engine with the event's escort
 * settings; FIELD_ERROR with `escortPersons.N.…` keys) and answers them as rows to write.
 */
export function checkStepEscorts(defs: FieldDef[], event: EventRow, now: Date, language: string, list: Array<Record<string, unknown>>, want: number) {
  const problems: FieldError[] = []
  if (list.length !== want) problems.push({ field: 'escortPersons', errorType: list.length < want ? 'REQUIRED' : 'TOO_BIG' })
  // the pay page's count is the tickets': the engine checks the persons, not maxVisitorPerSubscription
  const ev = evaluate(defs, { escortPersons: list }, { ...formContext(event, now, { admin: false, vip: false, language }), maxVisitorPerSubscription: -1 })
  for (const p of [...ev.missing, ...ev.invalid]) if (p.field.startsWith('escortPersons.')) problems.push({ field: p.field, errorType: p.errorType })
  if (problems.length) throw fieldError(problems)
  const shown = escortAppearance(defs)
  const asked = (Object.keys(COLUMNS) as Array<keyof EscortAppearance>).filter((k) => shown[k] !== 'HIDDEN')
  return ev.data.escortPersons.map((e: EscortData, i) => {
    const all = escortColumns(e)
    const columns: EscortColumns = {}
    for (const k of asked) for (const c of COLUMNS[k]) (columns as Record<string, unknown>)[c] = all[c as keyof typeof all]
    const n = Number(list[i]?.number)
    return { number: Number.isInteger(n) && n > 0 ? n : null, columns }
  })
}

/** Writes step 5's escorts in place (escort-write.ts): `number` names an existing one. */
export async function writeStepEscorts(trx: Db, v: { id: number; escort_rev: number }, rows: Array<{ number: number | null; columns: EscortColumns }>) {
  const existing = await trx.selectFrom('escort_person').select(['id', 'number']).where('visitor_id', '=', v.id).execute()
  const byNumber = new Map(existing.map((e) => [e.number, e.id]))
  const used = new Set<number>()
  const list = rows.map((r) => {
    const id = r.number != null ? byNumber.get(r.number) : undefined
    if (r.number != null && (id === undefined || used.has(id))) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'escortPersons', errorType: 'INVALID' }] })
    if (id !== undefined) used.add(id)
    return { id: id ?? null, columns: r.columns }
  })
  await writeEscorts(trx, v, list, { keepCheckedIn: true })
}
