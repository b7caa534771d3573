// Mails the guest list sends (invitation, approval, move-up from the waiting list, decline, confirmation of an accepted invitation).
// Each goes into the outbox inside the transaction that changed the guest; the button opens the
// guest's dashboard through a fresh GUEST_ACCESS token.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { t } from '../../i18n/catalogue'
import { formatTime } from '../../i18n/format'
import { formatDateIn } from '../../i18n/locale-format'
import type { EventRow } from '../events/events.table'
import { localisedEvent } from '../events/translations'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { enqueueMail } from '../mail/outbox'
import { mailGreeting } from '../mail/greeting'
import { renderMail } from '../mail/render'
import { mailTextFor } from '../mail/texts'
import type { EventVisitorRow } from './visitors.table'

export type GuestMailKind = 'INVITATION' | 'APPROVED' | 'PROMOTED' | 'DECLINED' | 'ACTIVATED'

/** The guest's user (by e-mail), created without a password when missing; links it to the visitor. */
export async function ensureGuestUser(trx: Db, visitor: EventVisitorRow): Promise<number | null> {
  if (visitor.user_id) return visitor.user_id
  if (!visitor.email) return null
  const existing = await trx.selectFrom('app_user').select('id').where('email', '=', visitor.email).executeTakeFirst()
  const id = existing?.id ?? (await trx.insertInto('app_user').values({ email: visitor.email, password_hash: null, status: 'OK', language: visitor.language }).returning('id').executeTakeFirstOrThrow()).id
  await trx.updateTable('event_visitor').set({ user_id: id }).where('id', '=', visitor.id).execute()
  return id
}

export async function queueGuestMail(ctx: AppContext, trx: Db, kind: GuestMailKind, event: EventRow, visitor: EventVisitorRow, opts: { reason?: string | null; agencyName?: string } = {}) {
  if (!visitor.email) return false
  const userId = await ensureGuestUser(trx, visitor)
  if (!userId) return false
  const lang = visitor.language
  // the event's texts in the guest's language where the organiser translated them
  event = await localisedEvent(trx, event, lang)
  const token = await issueAccessToken(ctx, trx, userId, GUEST_ACCESS)
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}`
  const agencyName = opts.agencyName ?? (await trx.selectFrom('agency').select('display_name').where('id', '=', event.agency_id).executeTakeFirst())?.display_name ?? ''
  const name = [visitor.salutation, visitor.title, visitor.first_name, visitor.last_name].filter(Boolean).join(' ')
  const params = { event: event.display_name, date: formatDateIn(lang, event.start_date, event.timezone), time: formatTime(event.start_date, event.timezone), name, agency: agencyName }
  const k = `visitors.mail.${kind}`
  // the agency's own wording of this mail when it has one (mail/texts.ts), else the catalogue's
  const own = await mailTextFor(trx, event.agency_id, kind, lang, params)
  const paragraphs = [...own.paragraphs]
  if (kind === 'INVITATION' && visitor.status === 'PENDING') paragraphs.push(t(lang, 'visitors.mail.INVITATION.reserved'))
  if (opts.reason) paragraphs.push(t(lang, 'visitors.mail.reason', { reason: opts.reason }))
  const mail = renderMail({
    subject: own.subject,
    greeting: mailGreeting(lang, { salutation: visitor.salutation, title: visitor.title, firstName: visitor.first_name, lastName: visitor.last_name }),
    paragraphs,
    button: { label: t(lang, `${k}.button`), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    footer: t(lang, 'mail.footer', { agency: agencyName }),
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, {
    kind: `VISITOR_${kind}`,
    to: visitor.email,
    toName: [visitor.first_name, visitor.last_name].filter(Boolean).join(' '),
    ...mail,
    language: lang,
    agencyId: event.agency_id,
    eventId: event.id,
    visitorId: visitor.id,
    userId,
  })
  return true
}
