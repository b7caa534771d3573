// Mails a guest asks for again from the dashboard: the registration confirmation
// (POST /api/public/events/{id}/visitor/resendMail, visitorId) and the invitation
// (POST /api/guest/{id}/sendInvitation). Both go through the outbox; a guest cannot use them to
// flood an inbox (RESEND_MAX per registration and hour).
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import type { GuestActor } from '../identity/auth'
import { enqueueTemplateMail } from '../mail/outbox'
import { queueGuestMail } from '../visitors/mails'
import { ownRegistration } from './details'

export const RESEND_MAX = 3
const HOUR = 3600_000

/** Statuses a confirmation exists for (the registration mail's kinds: confirmed, approval, waiting list). */
const CONFIRMABLE: readonly string[] = ['CONFIRMED', 'APPEARED', 'REQUIRE_APPROVAL', 'WAITING_LIST']
/** Statuses whose invitation is still open. */
const INVITABLE: readonly string[] = ['INVITED', 'PENDING']

async function assertNotFlooding(ctx: AppContext, visitorId: number, kind: string) {
  const since = isoNow(new Date(ctx.clock.now().getTime() - HOUR))
  const n = await ctx.db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('visitor_id', '=', visitorId)
    .where('kind', '=', kind)
    .where('created_at', '>', since as never)
    .executeTakeFirst()
  if (Number(n?.n ?? 0) >= RESEND_MAX) throw new AppError(429, 'RATE_LIMITED')
}

export async function resendConfirmation(ctx: AppContext, guest: GuestActor, eventId: number, visitorId: number) {
  const { v, event } = await ownRegistration(ctx.db, guest, visitorId)
  if (v.event_id !== eventId) throw notFound()
  if (!CONFIRMABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
  if (!v.email) throw new AppError(409, 'NO_EMAIL')
  const kind = 'REGISTRATION_CONFIRMATION_RESENT'
  await assertNotFlooding(ctx, v.id, kind)
  await ctx.db.transaction().execute(async (trx) => {
    // the registration's own mail, rendered from the registration as stored now
    await enqueueTemplateMail(trx, {
      kind,
      template: 'REGISTRATION_CONFIRMATION',
      params: { status: v.status, token: await issueAccessToken(ctx, trx, guest.user.id, GUEST_ACCESS) },
      to: v.email!,
      toName: [v.first_name, v.last_name].filter(Boolean).join(' '),
      language: v.language,
      agencyId: event.agency_id,
      eventId: event.id,
      visitorId: v.id,
      userId: guest.user.id,
    })
  })
  ctx.notifyMail()
  return { sent: true }
}

export async function sendInvitationAgain(ctx: AppContext, guest: GuestActor, visitorId: number) {
  const { v, event } = await ownRegistration(ctx.db, guest, visitorId)
  if (!INVITABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
  if (!v.email) throw new AppError(409, 'NO_EMAIL')
  await assertNotFlooding(ctx, v.id, 'VISITOR_INVITATION')
  await ctx.db.transaction().execute((trx) => queueGuestMail(ctx, trx, 'INVITATION', event, v))
  ctx.notifyMail()
  return { sent: true }
}
