// Reports go to the agency's administrators (stored for the reports list, and mailed) and, for every
// type that is not about the event itself (fraud, terrorism, abuse …), to the server's support
// address too. Support messages and feedback go to the support address. Each is stored and its mails
// queued in one transaction.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, toJson } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { AppError, notFound } from '../../shared/errors'
import { sanitizeRichText } from '../events/rich-text'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import type { FeedbackInput, ImprintInput, ReportInput, SupportInput } from './model'
import { isLegalReport, reportTypesFor } from './model'

async function reportableEvent(db: Db, eventId: number) {
  const e = await db.selectFrom('event').select(['id', 'agency_id', 'display_name', 'use_reporting', 'status']).where('id', '=', eventId).executeTakeFirst()
  // an event that does not offer reporting is not a report target (the dialog is not shown there)
  if (!e || e.status === 'DELETED' || !bool(e.use_reporting)) throw notFound()
  return e
}

/** Step 1 and 2 of the dialog: the types to choose from and, for event-related ones, whom to contact. */
export async function reportInfo(ctx: AppContext, eventId?: number) {
  if (!eventId) return { reportTypes: reportTypesFor(false), contactInfo: null, eventName: null }
  const e = await reportableEvent(ctx.db, eventId)
  const a = await ctx.db.selectFrom('agency').select(['id', 'display_name', 'contact_guest', 'contact_guest_phone', 'contact_guest_mail']).where('id', '=', e.agency_id).executeTakeFirstOrThrow()
  return {
    reportTypes: reportTypesFor(true),
    eventName: e.display_name,
    contactInfo: { agencyName: a.display_name, guestContact: a.contact_guest, phones: a.contact_guest_phone ? [a.contact_guest_phone] : [], mails: a.contact_guest_mail ? [a.contact_guest_mail] : [], extraInfo: null },
  }
}

const adminsOf = (db: Db, agencyId: number) =>
  db.selectFrom('account as a').innerJoin('app_user as u', 'u.id', 'a.user_id').select(['u.id', 'u.email', 'u.language']).where('a.agency_id', '=', agencyId).where('a.user_role', '=', 'AGENCY_ADMIN').execute()

function reportMail(lang: string, r: ReportInput & { agencyName: string | null }, id: number) {
  const who = r.sexualAbuse ? t(lang, 'report.mail.anonymous') : `${r.firstName} ${r.lastName} <${r.email}>${r.submitIdentity ? '' : ` (${t(lang, 'report.mail.identityNotShared')})`}`
  return renderMail({
    subject: t(lang, 'report.mail.subject', { type: t(lang, `report.type.${r.reportType}`), id }),
    paragraphs: [
      t(lang, 'report.mail.intro', { agency: r.agencyName ?? '–', event: r.eventName ?? '–' }),
      `${t(lang, 'report.field.reportType')}: ${t(lang, `report.type.${r.reportType}`)}${r.important ? ` (${t(lang, 'report.field.important')})` : ''}`,
      `${t(lang, 'report.field.reason')}: ${r.reason}`,
      `${t(lang, 'report.mail.from')}: ${who}`,
      ...(r.originUrl ? [`${t(lang, 'report.mail.page')}: ${r.originUrl}`] : []),
    ],
  })
}

export async function submitReport(ctx: AppContext, input: ReportInput, userId: number | null) {
  // event-related types are answered by the organiser's contact info (step 2), never by a report
  if (!isLegalReport(input.reportType)) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'reportType', errorType: 'INVALID' }] })
  let agencyId: number | null = null
  let eventName = input.eventName ?? null
  if (input.eventId) {
    const e = await reportableEvent(ctx.db, input.eventId)
    agencyId = e.agency_id
    eventName = e.display_name
  } else if (input.agencyId) {
    const a = await ctx.db.selectFrom('agency').select('id').where('id', '=', input.agencyId).executeTakeFirst()
    agencyId = a?.id ?? null
  }
  const agencyName = agencyId ? ((await ctx.db.selectFrom('agency').select('display_name').where('id', '=', agencyId).executeTakeFirst())?.display_name ?? null) : null
  const full = { ...input, eventName, agencyName }
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('guest_report')
      .values({
        agency_id: agencyId,
        event_id: input.eventId ?? null,
        user_id: userId,
        report_type: input.reportType,
        origin: input.origin ?? null,
        origin_url: input.originUrl ?? null,
        event_name: eventName,
        agency_name: agencyName,
        reason: input.reason,
        important: input.important,
        sexual_abuse: input.sexualAbuse,
        submit_identity: input.submitIdentity,
        confirm_correct_data: input.confirmCorrectData,
        first_name: input.firstName ?? null,
        last_name: input.lastName ?? null,
        email: input.email ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (agencyId) {
      for (const admin of await adminsOf(trx, agencyId)) await enqueueMail(trx, { kind: 'GUEST_REPORT', to: admin.email, ...reportMail(admin.language, full, row.id), language: admin.language, agencyId, eventId: input.eventId ?? null, userId: admin.id })
    }
    if (isLegalReport(input.reportType)) await enqueueMail(trx, { kind: 'GUEST_REPORT_SUPPORT', to: ctx.config.support.email, ...reportMail('de', full, row.id), agencyId, eventId: input.eventId ?? null })
    return row.id
  })
  ctx.notifyMail()
  return { id, submitted: true }
}

/** The agency's reports, newest first (organiser area). */
export async function agencyReports(db: Db, agencyId: number, page: number, perPage: number) {
  const base = db.selectFrom('guest_report').where('agency_id', '=', agencyId)
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(perPage).offset(page * perPage).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return {
    items: rows.map((r) => ({
      id: r.id,
      reportType: r.report_type,
      eventId: r.event_id,
      eventName: r.event_name,
      reason: r.reason,
      important: bool(r.important),
      sexualAbuse: bool(r.sexual_abuse),
      submitIdentity: bool(r.submit_identity),
      // the reporter chose whether the organiser may see who they are
      firstName: bool(r.submit_identity) ? r.first_name : null,
      lastName: bool(r.submit_identity) ? r.last_name : null,
      email: bool(r.submit_identity) ? r.email : null,
      originUrl: r.origin_url,
      createdAt: r.created_at,
    })),
    total: Number(total?.n ?? 0),
    page,
    perPage,
  }
}

export async function submitSupport(ctx: AppContext, input: SupportInput, user: { id: number; email: string } | null) {
  let agencyId = input.agencyId ?? null
  let eventName = input.eventName ?? null
  if (input.eventId) {
    const e = await ctx.db.selectFrom('event').select(['agency_id', 'display_name']).where('id', '=', input.eventId).executeTakeFirst()
    if (!e) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'eventId', errorType: 'INVALID' }] })
    agencyId = e.agency_id
    eventName = e.display_name
  }
  if (agencyId && !(await ctx.db.selectFrom('agency').select('id').where('id', '=', agencyId).executeTakeFirst())) agencyId = null
  const additional = input.additionalData == null ? null : typeof input.additionalData === 'string' ? input.additionalData : toJson(input.additionalData).slice(0, 5000)
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('support_message')
      .values({ agency_id: agencyId, event_id: input.eventId ?? null, user_id: user?.id ?? null, user_email: user?.email ?? null, subject: input.subject, content: input.content, origin_url: input.originUrl ?? null, state: input.state ?? null, dialog: input.dialog ?? null, additional_data: additional, event_name: eventName })
      .returning('id')
      .executeTakeFirstOrThrow()
    const mail = renderMail({
      subject: t('de', 'support.mail.subject', { subject: input.subject, id: row.id }),
      paragraphs: [
        input.content,
        `${t('de', 'support.mail.from')}: ${user?.email ?? '–'}`,
        `${t('de', 'support.mail.context')}: ${[input.originUrl, input.state, input.dialog, eventName, agencyId ? `#${agencyId}` : null].filter(Boolean).join(' · ') || '–'}`,
        ...(additional ? [additional] : []),
      ],
    })
    await enqueueMail(trx, { kind: 'SUPPORT_MESSAGE', to: ctx.config.support.email, ...mail, agencyId, eventId: input.eventId ?? null })
    return row.id
  })
  ctx.notifyMail()
  return { id, submitted: true }
}

export async function submitFeedback(ctx: AppContext, input: FeedbackInput, userId: number | null) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.insertInto('feedback').values({ user_id: userId, name: input.name ?? null, email: input.email ?? null, page: input.page ?? null, message: input.message }).returning('id').executeTakeFirstOrThrow()
    const mail = renderMail({
      subject: t('de', 'feedback.mail.subject', { id: row.id }),
      paragraphs: [input.message, `${t('de', 'feedback.mail.from')}: ${[input.name, input.email].filter(Boolean).join(' ') || '–'}`, `${t('de', 'feedback.mail.page')}: ${input.page ?? '–'}`],
    })
    await enqueueMail(trx, { kind: 'FEEDBACK', to: ctx.config.support.email, ...mail })
    return row.id
  })
  ctx.notifyMail()
  return { id, submitted: true }
}

export async function imprintOf(db: Db, agencyId: number) {
  const a = await db
    .selectFrom('agency')
    .select(['id', 'display_name', 'imprint_text', 'imprint_url', 'privacy_text', 'privacy_url', 'contact_guest', 'contact_guest_phone', 'contact_guest_mail'])
    .where('id', '=', agencyId)
    .executeTakeFirst()
  if (!a) throw notFound()
  return {
    agencyId: a.id,
    agencyName: a.display_name,
    imprintText: a.imprint_text,
    imprintUrl: a.imprint_url,
    privacyText: a.privacy_text,
    privacyUrl: a.privacy_url,
    contactGuest: a.contact_guest,
    contactGuestPhone: a.contact_guest_phone,
    contactGuestMail: a.contact_guest_mail,
  }
}

export async function saveImprint(db: Db, agencyId: number, input: ImprintInput) {
  await db
    .updateTable('agency')
    .set({ imprint_text: sanitizeRichText(input.imprintText) || null, imprint_url: input.imprintUrl ?? null, privacy_text: sanitizeRichText(input.privacyText) || null, privacy_url: input.privacyUrl ?? null, contact_guest: input.contactGuest ?? null, contact_guest_phone: input.contactGuestPhone ?? null, contact_guest_mail: input.contactGuestMail ?? null })
    .where('id', '=', agencyId)
    .execute()
  return imprintOf(db, agencyId)
}

/**
 * Account erasure (identity/deletion.ts): the person behind reports, support messages and feedback is
 * forgotten (name, e-mail, user link); what they reported stays for the organiser and the operator.
 * agencyId set: only what went to that agency.
 */
export async function eraseHelpData(trx: Db, p: { userId: number; email: string; agencyId: number | null }) {
  const mine = (eb: any, userCol: string, mailCol: string) => eb.or([eb(userCol, '=', p.userId), eb(mailCol, '=', p.email.toLowerCase())])
  let reports = trx.updateTable('guest_report').set({ user_id: null, first_name: null, last_name: null, email: null, submit_identity: false }).where((eb) => mine(eb, 'user_id', 'email'))
  if (p.agencyId != null) reports = reports.where('agency_id', '=', p.agencyId)
  await reports.execute()
  let support = trx.updateTable('support_message').set({ user_id: null, user_email: null }).where((eb) => mine(eb, 'user_id', 'user_email'))
  if (p.agencyId != null) support = support.where('agency_id', '=', p.agencyId)
  await support.execute()
  if (p.agencyId == null) await trx.updateTable('feedback').set({ user_id: null, name: null, email: null }).where((eb) => mine(eb, 'user_id', 'email')).execute()
}
