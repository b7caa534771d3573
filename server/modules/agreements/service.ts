// Agreements and their signatures. A decision replaces the earlier one (guest-side.md 4: "a resign
// clears the earlier state"); CONFIRMED needs a drawn signature, DECLINED is only for optional ones.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { sanitizeRichText } from '../events/rich-text'
import { zonedToUtc } from '../../i18n/format'
import type { EventVisitorRow } from '../visitors/visitors.table'
import type { AgreementRow } from './agreements.table'
import type { AgreementInput, SignInput } from './model'
import { recordDecisions } from './consent'
import { localisedAgreements } from './translations'
import { effectiveAgreements } from './repository'
import { validSignature } from './signature'

export { validSignature }

export function agreementDto(a: AgreementRow) {
  return {
    id: a.id,
    displayName: a.display_name,
    description: a.description,
    appearance: a.appearance,
    validity: a.validity,
    type: a.validity === 'GLOBAL' ? 'global' : 'event',
    eventId: a.event_id,
    active: bool(a.active),
    sortOrder: a.sort_order,
    version: a.version,
    updatedAt: a.updated_at,
  }
}

async function assertEventOfAgency(db: Db, agencyId: number, eventId: number | null | undefined) {
  if (!eventId) return
  const e = await db.selectFrom('event').select('agency_id').where('id', '=', eventId).executeTakeFirst()
  if (!e || e.agency_id !== agencyId) throw fieldError([{ field: 'eventId', errorType: 'INVALID' }])
}

function columns(input: AgreementInput) {
  return {
    display_name: input.displayName,
    description: sanitizeRichText(input.description) ?? '',
    appearance: input.appearance,
    validity: input.validity,
    event_id: input.validity === 'EVENT' ? input.eventId! : null,
    active: input.active,
    sort_order: input.sortOrder,
  }
}

export async function createAgreement(ctx: AppContext, agencyId: number, input: AgreementInput) {
  await assertEventOfAgency(ctx.db, agencyId, input.eventId)
  const now = isoNow(ctx.clock.now())
  return ctx.db.insertInto('agreement').values({ ...columns(input), agency_id: agencyId, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow()
}

export async function agreementOfAgency(db: Db, agencyId: number, id: number) {
  const a = await db.selectFrom('agreement').selectAll().where('id', '=', id).executeTakeFirst()
  if (!a || a.agency_id !== agencyId) throw notFound()
  return a
}

export async function updateAgreement(ctx: AppContext, agencyId: number, id: number, input: AgreementInput) {
  await agreementOfAgency(ctx.db, agencyId, id)
  await assertEventOfAgency(ctx.db, agencyId, input.eventId)
  // a new version: consents name the text they were given to, and a form showing the old text is refused
  return ctx.db
    .updateTable('agreement')
    .set((eb) => ({ ...columns(input), version: eb('version', '+', 1), updated_at: isoNow(ctx.clock.now()) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Deactivates: the signatures given so far stay on record. */
export async function deactivateAgreement(ctx: AppContext, agencyId: number, id: number) {
  await agreementOfAgency(ctx.db, agencyId, id)
  return ctx.db.updateTable('agreement').set({ active: false, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function searchAgreements(db: Db, agencyId: number, s: { eventId?: number; validity?: string; includeInactive: boolean }) {
  let q = db.selectFrom('agreement').selectAll().where('agency_id', '=', agencyId)
  if (!s.includeInactive) q = q.where('active', '=', true as never)
  if (s.validity) q = q.where('validity', '=', s.validity as 'GLOBAL' | 'EVENT')
  if (s.eventId) q = q.where((eb) => eb.or([eb('event_id', '=', s.eventId!), eb('validity', '=', 'GLOBAL')]))
  return q.orderBy('validity', 'desc').orderBy('sort_order').orderBy('id').execute()
}

export async function signAgreements(ctx: AppContext, event: EventRow, visitor: EventVisitorRow, input: SignInput, origin: 'GUEST' | 'DESK' | 'SELF_CHECKIN', accountId: number | null, language = 'de') {
  // the record keeps each agreement as it was shown: in the page's language where the organiser translated it
  const available = new Map((await localisedAgreements(ctx.db, await effectiveAgreements(ctx.db, event), language)).map((a) => [a.id, a]))
  const fields: Array<{ field: string; errorType: string }> = []
  input.agreements.forEach((d, i) => {
    const a = available.get(d.id)
    if (!a) fields.push({ field: `agreements.${i}.id`, errorType: 'INVALID' })
    else if (d.status === 'CONFIRMED' && !validSignature(d.signature)) fields.push({ field: `agreements.${i}.signature`, errorType: 'SIGNATURE_REQUIRED' })
    else if (d.status === 'DECLINED' && a.appearance === 'REQUIRED') fields.push({ field: `agreements.${i}.status`, errorType: 'AGREEMENT_REQUIRED' })
  })
  if (fields.some((f) => f.errorType === 'AGREEMENT_REQUIRED')) throw new AppError(400, 'AGREEMENT_REQUIRED', { fields })
  if (fields.length) throw fieldError(fields)
  const now = isoNow(ctx.clock.now())
  const decisions = input.agreements.map((d) => ({ agreement: available.get(d.id)!, status: d.status, signature: d.status === 'CONFIRMED' ? d.signature! : null }))
  await ctx.db.transaction().execute((trx) => recordDecisions(trx, { visitorId: visitor.id, eventId: event.id, decisions, origin, accountId, at: now }))
  return agreementsOfVisitor(ctx, event, visitor.id, language)
}

/** The event's agreements with this registration's decisions (the signature only as a flag). */
export async function agreementsOfVisitor(ctx: AppContext, event: { id: number; agency_id: number }, visitorId: number, language = 'de') {
  const [list, decisions] = await Promise.all([
    effectiveAgreements(ctx.db, event).then((rows) => localisedAgreements(ctx.db, rows, language)),
    ctx.db.selectFrom('visitor_agreement').select(['id', 'agreement_id', 'status', 'decided_at', 'confirm_date', 'decline_date', 'origin']).select((eb) => eb('signature', 'is not', null).as('has_signature')).where('visitor_id', '=', visitorId).execute(),
  ])
  const by = new Map(decisions.map((d) => [d.agreement_id, d]))
  return list.map((a) => {
    const d = by.get(a.id)
    return {
      ...agreementDto(a),
      completed: d?.status === 'CONFIRMED' || d?.status === 'DECLINED',
      status: d?.status ?? null,
      confirmDate: d?.confirm_date ?? null,
      declineDate: d?.decline_date ?? null,
      signatureId: d && bool(d.has_signature as number) ? d.id : null,
      origin: d?.origin ?? null,
    }
  })
}

const AGENCY_TZ = 'Europe/Berlin'
const dayStart = (d: string) => (d.length === 10 ? zonedToUtc(`${d}T00:00`, AGENCY_TZ) : new Date(d)).toISOString()
const dayEnd = (d: string) => (d.length === 10 ? new Date(zonedToUtc(`${d}T00:00`, AGENCY_TZ).getTime() + 86400_000 - 1) : new Date(d)).toISOString()

export async function searchSignatures(
  db: Db,
  agencyId: number,
  s: { filter: { startDate?: string | null; endDate?: string | null; validity?: string | null }; eventId?: number; visitorId?: number; agreementId?: number; page: number; perPage: number },
) {
  let q = db
    .selectFrom('visitor_agreement as va')
    .innerJoin('agreement as a', 'a.id', 'va.agreement_id')
    .innerJoin('event_visitor as v', 'v.id', 'va.visitor_id')
    .innerJoin('event as e', 'e.id', 'va.event_id')
    .where('a.agency_id', '=', agencyId)
  if (s.filter.startDate) q = q.where('va.decided_at', '>=', dayStart(s.filter.startDate))
  if (s.filter.endDate) q = q.where('va.decided_at', '<=', dayEnd(s.filter.endDate))
  if (s.filter.validity) q = q.where('a.validity', '=', s.filter.validity as 'GLOBAL' | 'EVENT')
  if (s.eventId) q = q.where('va.event_id', '=', s.eventId)
  if (s.visitorId) q = q.where('va.visitor_id', '=', s.visitorId)
  if (s.agreementId) q = q.where('va.agreement_id', '=', s.agreementId)
  const [rows, total] = await Promise.all([
    q
      .select([
        'va.id',
        'va.status',
        'va.decided_at',
        'va.confirm_date',
        'va.decline_date',
        'va.origin',
        'va.visitor_id',
        'va.event_id',
        'a.id as agreement_id',
        'a.display_name as agreement_name',
        'a.validity',
        'a.appearance',
        'v.first_name',
        'v.last_name',
        'v.email',
        'e.display_name as event_name',
      ])
      .select((eb) => eb('va.signature', 'is not', null).as('has_signature'))
      .orderBy('va.decided_at', 'desc')
      .orderBy('va.id', 'desc')
      .limit(s.perPage)
      .offset(s.page * s.perPage)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return {
    items: rows.map((r) => ({
      id: r.id,
      agreementId: r.agreement_id,
      agreementName: r.agreement_name,
      validity: r.validity,
      appearance: r.appearance,
      visitorId: r.visitor_id,
      eventId: r.event_id,
      eventName: r.event_name,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      status: r.status,
      decidedAt: r.decided_at,
      confirmDate: r.confirm_date,
      declineDate: r.decline_date,
      origin: r.origin,
      signatureId: bool(r.has_signature as number) ? r.id : null,
    })),
    total: Number(total?.n ?? 0),
    page: s.page,
    perPage: s.perPage,
  }
}

/**
 * Every decision a registration made, oldest first, as it was recorded (agreement_signature, append
 * only): the agreement's name, text and version as shown, the status, when, where (origin) and by
 * which staff account; the image through /signatures/log/{id}/signature.
 */
export async function signatureLog(db: Db, agencyId: number, visitorId: number) {
  const v = await db.selectFrom('event_visitor as v').innerJoin('event as e', 'e.id', 'v.event_id').select(['v.id', 'e.agency_id']).where('v.id', '=', visitorId).executeTakeFirst()
  if (!v || v.agency_id !== agencyId) throw notFound()
  const rows = await db
    .selectFrom('agreement_signature')
    .select(['id', 'agreement_id', 'status', 'agreement_version', 'agreement_name', 'agreement_text', 'appearance', 'origin', 'account_id', 'decided_at'])
    .select((eb) => eb('signature', 'is not', null).as('has_signature'))
    .where('visitor_id', '=', visitorId)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    agreementId: r.agreement_id,
    status: r.status,
    version: r.agreement_version,
    displayName: r.agreement_name,
    description: r.agreement_text,
    appearance: r.appearance,
    origin: r.origin,
    accountId: r.account_id,
    decidedAt: r.decided_at,
    hasSignature: bool(r.has_signature as number),
  }))
}
