// Passing a place on (beyond the spec; alf.io #645, Hi.Events #905): where the event allows it and
// until its deadline, a registered guest hands the registration to another person. The registration
// keeps its place (no capacity moves), gets the new person's name and e-mail, new tokens and a new
// ticket code (the old QR and links stop working), the old guest loses access, both get a mail and
// the organiser sees the history (visitor_transfer, in the guest detail).
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { formatDate, formatTime } from '../../i18n/format'
import { AppError } from '../../shared/errors'
import { ticketBlock } from '../checkin/ticket-validity'
import type { EventRow } from '../events/events.table'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { mailGreeting } from '../mail/greeting'
import type { GuestActor } from '../identity/auth'
import { isStaffAddress } from '../identity/repository'
import { randomString } from '../identity/tokens'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { detailParts } from '../visitors/detail'
import type { EventVisitorRow } from '../visitors/visitors.table'
import { ownRegistration } from './details'
import type { TransferInput } from './model'

/** Only a registration with a place that nobody has used yet can be passed on. */
const TRANSFERABLE: readonly string[] = ['CONFIRMED']

/** The instant until which the event lets guests pass places on (its deadline, else its start). */
export const transferDeadline = (e: Pick<EventRow, 'transfer_until' | 'start_date'>) => e.transfer_until ?? e.start_date

/** Whether the guest may pass this registration on now (the dashboard shows the option only then). */
export function canTransfer(e: Pick<EventRow, 'allow_transfer' | 'transfer_until' | 'start_date' | 'status'>, v: Pick<EventVisitorRow, 'status' | 'main_guest_checked_in'>, now: Date): boolean {
  return bool(e.allow_transfer) && TRANSFERABLE.includes(v.status) && !bool(v.main_guest_checked_in) && new Date(transferDeadline(e)).getTime() > now.getTime()
}

async function guestUserFor(trx: Db, email: string, language: string): Promise<number> {
  const existing = await trx.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirst()
  if (existing) return existing.id
  const created = await trx.insertInto('app_user').values({ email, password_hash: null, status: 'OK', language }).onConflict((oc) => oc.column('email').doNothing()).returning('id').executeTakeFirst()
  return created?.id ?? (await trx.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
}

export async function transferRegistration(ctx: AppContext, guest: GuestActor, visitorId: number, input: TransferInput) {
  const now = ctx.clock.now()
  const { v: before, event } = await ownRegistration(ctx.db, guest, visitorId)
  if (!bool(event.allow_transfer)) throw new AppError(409, 'TRANSFER_NOT_ALLOWED')
  if (new Date(transferDeadline(event)).getTime() <= now.getTime()) throw new AppError(409, 'TRANSFER_CLOSED')
  if (!canTransfer(event, before, now)) throw new AppError(409, 'TRANSFER_NOT_ALLOWED')
  // only a valid ticket is passed on (checkin/ticket-validity.ts): an order waiting for its money has
  // no ticket the new person could be mailed
  const order = await ctx.db.selectFrom('ticket_order').select(['status', 'payment_method']).where('visitor_id', '=', before.id).orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (ticketBlock(order, event.invoice_tickets)) throw new AppError(409, 'TRANSFER_TICKET_NOT_VALID')
  if (input.email === before.email) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'email', errorType: 'TRANSFER_SAME_PERSON' }] })
  const agencyName = (await ctx.db.selectFrom('agency').select('display_name').where('id', '=', event.agency_id).executeTakeFirst())?.display_name ?? ''
  const row = await ctx.db
    .transaction()
    .execute(async (trx) => {
      // a registration passed to staff would hand it to their organiser login and mail them a guest
      // link: refused as the access link refuses them (the same rule, code and message)
      if (await isStaffAddress(trx, input.email)) throw new AppError(409, 'USER_HAS_ACCOUNT', { fields: [{ field: 'email', errorType: 'USER_HAS_ACCOUNT' }] })
      const userId = await guestUserFor(trx, input.email, before.language)
      // Conditional on what was read: a check-in, a status change or a second hand-over at the
      // same moment wins cleanly (nothing half done).
      const v = await trx
        .updateTable('event_visitor')
        .set({
          user_id: userId,
          salutation: null,
          title: null,
          first_name: input.firstName,
          last_name: input.lastName,
          email: input.email,
          company: null,
          position: null,
          phone_number: null,
          event_token: randomString(20),
          download_token: randomString(20),
          // a new code is made on first use (checkin/ticket.ts): the old QR stops working now
          ticket_code: null,
          updated_at: isoNow(now),
        })
        .where('id', '=', before.id)
        .where('user_id', '=', guest.user.id)
        .where('status', '=', before.status)
        .where('main_guest_checked_in', '=', false as never)
        .returningAll()
        .executeTakeFirst()
      if (!v) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
      await trx
        .insertInto('visitor_transfer')
        .values({
          visitor_id: v.id,
          event_id: event.id,
          from_first_name: before.first_name,
          from_last_name: before.last_name,
          from_email: before.email,
          to_first_name: input.firstName,
          to_last_name: input.lastName,
          to_email: input.email,
          created_at: isoNow(now),
        })
        .execute()
      await transferMails(ctx, trx, event, agencyName, before, v, userId)
      return v
    })
    .catch((e) => {
      // the new person is already on the list of this event (unique e-mail per event)
      if (isUniqueViolation(e, 'event_visitor')) throw new AppError(409, 'ALREADY_REGISTERED', { fields: [{ field: 'email', errorType: 'ALREADY_REGISTERED' }] })
      throw e
    })
  ctx.notifyMail()
  return { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email }
}

async function transferMails(ctx: AppContext, trx: Db, event: EventRow, agency: string, from: EventVisitorRow, to: EventVisitorRow, toUserId: number) {
  const lang = from.language
  const fromName = [from.first_name, from.last_name].filter(Boolean).join(' ')
  const toName = [to.first_name, to.last_name].filter(Boolean).join(' ')
  const params = { event: event.display_name, date: formatDate(event.start_date, event.timezone), time: formatTime(event.start_date, event.timezone), from: fromName, to: toName }
  const footer = t(lang, 'mail.footer', { agency })
  if (from.email) {
    const m = renderMail({
      subject: t(lang, 'guestPortal.mail.transferredAway.subject', params),
      greeting: mailGreeting(lang, { salutation: from.salutation, title: from.title, firstName: from.first_name, lastName: from.last_name }),
      paragraphs: [t(lang, 'guestPortal.mail.transferredAway.text', params)],
      footer,
      accentColor: event.primary_color,
    })
    await enqueueMail(trx, { kind: 'VISITOR_TRANSFERRED_AWAY', to: from.email, toName: fromName, ...m, language: lang, agencyId: event.agency_id, eventId: event.id, visitorId: from.id, userId: from.user_id })
  }
  const token = await issueAccessToken(ctx, trx, toUserId, GUEST_ACCESS)
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}`
  const m = renderMail({
    subject: t(lang, 'guestPortal.mail.transferredTo.subject', params),
    greeting: mailGreeting(lang, { salutation: to.salutation, title: to.title, firstName: to.first_name, lastName: to.last_name }),
    paragraphs: [t(lang, 'guestPortal.mail.transferredTo.text', params)],
    button: { label: t(lang, 'guestPortal.mail.transferredTo.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    footer,
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, { kind: 'VISITOR_TRANSFERRED_TO', to: to.email!, toName, ...m, language: lang, agencyId: event.agency_id, eventId: event.id, visitorId: to.id, userId: toUserId })
}

/** The organiser's guest detail shows who passed the place to whom, and when. */
detailParts.push(async (ctx, v) => {
  const rows = await ctx.db.selectFrom('visitor_transfer').selectAll().where('visitor_id', '=', v.id).orderBy('id').execute()
  return {
    transfers: rows.map((r) => ({
      from: { firstName: r.from_first_name, lastName: r.from_last_name, email: r.from_email },
      to: { firstName: r.to_first_name, lastName: r.to_last_name, email: r.to_email },
      date: r.created_at,
    })),
  }
})
