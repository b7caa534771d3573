// Where guests' messages go. About an event (a report, a support question or feedback naming one):
// to its agency — stored for the organiser's reports page and mailed to the agency's contact address
// (its administrators when it has none). Legal reports (fraud, terrorism, abuse …) also, and
// everything not about an event only, go to the server's support address, and only when one is
// configured (EINLASS_SUPPORT_EMAIL other than the default support@localhost, which reaches nobody).
// Each is stored and its mails queued in one transaction. Mails carry readable text, never JSON.
import { SETTINGS } from '../../config/config'
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

/** Who at an agency reads guests' messages: its contact address, else its administrators. */
async function agencyRecipients(db: Db, agencyId: number): Promise<Array<{ email: string; language: string; userId: number | null }>> {
  const a = await db.selectFrom('agency').select('contact_guest_mail').where('id', '=', agencyId).executeTakeFirst()
  if (a?.contact_guest_mail) return [{ email: a.contact_guest_mail, language: 'de', userId: null }]
  return (await adminsOf(db, agencyId)).map((u) => ({ email: u.email, language: u.language, userId: u.id }))
}

const DEFAULT_SUPPORT_EMAIL = String(SETTINGS.find((x) => x.key === 'support.email')!.default)
/** The server's support address, when the operator configured one (the default reaches nobody). */
export const supportAddress = (ctx: AppContext): string | null => (ctx.config.support.email === DEFAULT_SUPPORT_EMAIL ? null : ctx.config.support.email)

/** The event a message names (any agency's, not deleted): its agency and name; null when none was named. */
async function aboutEvent(db: Db, eventId: number | null | undefined, field: string) {
  if (!eventId) return null
  const e = await db.selectFrom('event').select(['id', 'agency_id', 'display_name', 'status']).where('id', '=', eventId).executeTakeFirst()
  if (!e || e.status === 'DELETED') throw new AppError(400, 'FIELD_ERROR', { fields: [{ field, errorType: 'INVALID' }] })
  return e
}

/** A value of additionalData as text: language codes by name, lists and objects as "key: value" lines. */
function readable(lang: string, key: string, value: unknown): string[] {
  if (value === null || value === undefined || value === '') return []
  if (Array.isArray(value)) return value.flatMap((v) => readable(lang, key, v))
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => readable(lang, `${key} ${k}`, v))
  const text = String(value)
  if (key === 'language' || key === 'lang') {
    const name = t(lang, `support.mail.lang.${text}`)
    return [`${t(lang, 'support.mail.language')}: ${name.startsWith('support.mail.') ? text : name}`]
  }
  return [`${key}: ${text}`]
}

/** additionalData (an object, or a string that may hold JSON) as readable lines. */
export function additionalLines(lang: string, data: unknown): string[] {
  if (data == null || data === '') return []
  let v = data
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return [v as string]
    }
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => readable(lang, k, x))
  return [String(v)]
}

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
      for (const r of await agencyRecipients(trx, agencyId)) await enqueueMail(trx, { kind: 'GUEST_REPORT', to: r.email, ...reportMail(r.language, full, row.id), language: r.language, agencyId, eventId: input.eventId ?? null, userId: r.userId })
    }
    const support = supportAddress(ctx)
    if (support && isLegalReport(input.reportType)) await enqueueMail(trx, { kind: 'GUEST_REPORT_SUPPORT', to: support, ...reportMail('de', full, row.id), agencyId, eventId: input.eventId ?? null })
    return row.id
  })
  ctx.notifyMail()
  return { id, submitted: true }
}

/**
 * The agency's reports page: guests' reports, support questions and feedback about its events, newest
 * first. Each item has its `kind` (REPORT, SUPPORT, FEEDBACK); the text is `reason` (support: with
 * its `subject`). A reporter's identity only when they released it; feedback's sender as given.
 */
export async function agencyReports(db: Db, agencyId: number, page: number, perPage: number) {
  const upto = (page + 1) * perPage
  const count = (table: 'guest_report' | 'support_message' | 'feedback') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agency_id', '=', agencyId)
      .executeTakeFirst()
      .then((r) => Number(r?.n ?? 0))
  const [reports, support, feedback, totals] = await Promise.all([
    db.selectFrom('guest_report').selectAll().where('agency_id', '=', agencyId).orderBy('id', 'desc').limit(upto).execute(),
    db.selectFrom('support_message').selectAll().where('agency_id', '=', agencyId).orderBy('id', 'desc').limit(upto).execute(),
    db.selectFrom('feedback').selectAll().where('agency_id', '=', agencyId).orderBy('id', 'desc').limit(upto).execute(),
    Promise.all([count('guest_report'), count('support_message'), count('feedback')]),
  ])
  const base = { reportType: null as string | null, subject: null as string | null, important: false, sexualAbuse: false, submitIdentity: false, firstName: null as string | null, lastName: null as string | null, email: null as string | null, originUrl: null as string | null }
  const items = [
    ...reports.map((r) => ({
      ...base,
      kind: 'REPORT' as const,
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
    ...support.map((r) => ({ ...base, kind: 'SUPPORT' as const, id: r.id, eventId: r.event_id, eventName: r.event_name, subject: r.subject, reason: r.content, email: r.user_email, originUrl: r.origin_url, createdAt: r.created_at })),
    ...feedback.map((r) => ({ ...base, kind: 'FEEDBACK' as const, id: r.id, eventId: r.event_id ?? null, eventName: r.event_name ?? null, reason: r.message, firstName: r.name, email: r.email, originUrl: r.page, createdAt: r.created_at })),
  ]
  const time = (v: unknown) => new Date(v as string).getTime()
  items.sort((a, b) => time(b.createdAt) - time(a.createdAt) || b.id - a.id)
  return { items: items.slice(page * perPage, upto), total: totals[0] + totals[1] + totals[2], page, perPage }
}

/** The mail of a support question, in the recipient's language. */
function supportMail(lang: string, input: SupportInput, row: { id: number; from: string | null; eventName: string | null }, additional: string | null) {
  return renderMail({
    subject: t(lang, 'support.mail.subject', { subject: input.subject, id: row.id }),
    paragraphs: [
      input.content,
      `${t(lang, 'support.mail.from')}: ${row.from ?? '–'}`,
      ...(row.eventName ? [`${t(lang, 'support.mail.event')}: ${row.eventName}`] : []),
      ...(input.originUrl ? [`${t(lang, 'support.mail.page')}: ${input.originUrl}`] : []),
      ...(input.state && input.state !== input.originUrl ? [`${t(lang, 'support.mail.screen')}: ${input.state}`] : []),
      ...(input.dialog ? [`${t(lang, 'support.mail.dialog')}: ${input.dialog}`] : []),
      ...additionalLines(lang, additional),
    ],
  })
}

export async function submitSupport(ctx: AppContext, input: SupportInput, user: { id: number; email: string } | null) {
  const event = await aboutEvent(ctx.db, input.eventId, 'eventId')
  let agencyId = event?.agency_id ?? input.agencyId ?? null
  const eventName = event?.display_name ?? input.eventName ?? null
  if (agencyId && !(await ctx.db.selectFrom('agency').select('id').where('id', '=', agencyId).executeTakeFirst())) agencyId = null
  const additional = input.additionalData == null ? null : typeof input.additionalData === 'string' ? input.additionalData : toJson(input.additionalData).slice(0, 5000)
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('support_message')
      .values({ agency_id: agencyId, event_id: event?.id ?? null, user_id: user?.id ?? null, user_email: user?.email ?? null, subject: input.subject, content: input.content, origin_url: input.originUrl ?? null, state: input.state ?? null, dialog: input.dialog ?? null, additional_data: additional, event_name: eventName })
      .returning('id')
      .executeTakeFirstOrThrow()
    const from = user?.email ?? null
    // about an event: its agency answers; otherwise the operator's support, when there is one
    const to = event ? await agencyRecipients(trx, event.agency_id) : supportAddress(ctx) ? [{ email: supportAddress(ctx)!, language: 'de', userId: null }] : []
    for (const r of to) await enqueueMail(trx, { kind: 'SUPPORT_MESSAGE', to: r.email, ...supportMail(r.language, input, { id: row.id, from, eventName }, additional), language: r.language, agencyId, eventId: event?.id ?? null, userId: r.userId })
    return row.id
  })
  ctx.notifyMail()
  return { id, submitted: true }
}

export async function submitFeedback(ctx: AppContext, input: FeedbackInput, userId: number | null) {
  const event = await aboutEvent(ctx.db, input.eventId, 'eventId')
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('feedback')
      .values({ user_id: userId, name: input.name ?? null, email: input.email ?? null, page: input.page ?? null, message: input.message, agency_id: event?.agency_id ?? null, event_id: event?.id ?? null, event_name: event?.display_name ?? null })
      .returning('id')
      .executeTakeFirstOrThrow()
    const to = event ? await agencyRecipients(trx, event.agency_id) : supportAddress(ctx) ? [{ email: supportAddress(ctx)!, language: 'de', userId: null }] : []
    for (const r of to) {
      const lang = r.language
      const mail = renderMail({
        subject: event ? t(lang, 'feedback.mail.subjectEvent', { id: row.id, event: event.display_name }) : t(lang, 'feedback.mail.subject', { id: row.id }),
        paragraphs: [
          input.message,
          `${t(lang, 'feedback.mail.from')}: ${[input.name, input.email ? `<${input.email}>` : null].filter(Boolean).join(' ') || '–'}`,
          ...(event ? [`${t(lang, 'support.mail.event')}: ${event.display_name}`] : []),
          `${t(lang, 'feedback.mail.page')}: ${input.page ?? '–'}`,
        ],
      })
      await enqueueMail(trx, { kind: 'FEEDBACK', to: r.email, ...mail, language: lang, agencyId: event?.agency_id ?? null, eventId: event?.id ?? null, userId: r.userId })
    }
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
