// A guest's notifications are the mails einlass sent them about their registrations: the outbox rows
// addressed to the guest's user that name a registration (visitor_id). Nothing is copied: a delivery
// failure the worker records (status FAILED) shows as failed at once. Access-link, password and
// security-code mails carry no registration and are not notifications. The index
// mail_outbox_guest_notification_idx (user_id, id, visitor_id) answers both the page and the count
// from the index alone (10,000 notifications: see the test).
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import { t } from '../../i18n/catalogue'
import type { GuestNotification, NotificationPaging } from './model'

function kindTitle(language: string, kind: string) {
  const key = `notifications.kind.${kind}`
  const text = t(language, key)
  return text === key ? t(language, 'notifications.kind.OTHER') : text
}

/** The longest message a notification carries (a preview: the full mail is in the guest's inbox). */
export const MESSAGE_CHARS = 300

/**
 * A notification's message: what the mail said, as plain text without its links (they carry the
 * guest's tokens) and the lines that only introduced a link; null while a template mail is unsent.
 */
export function mailExcerpt(text: string | null | undefined): string | null {
  if (!text) return null
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\bhttps?:\/\/\S+/g, '').replace(/\s+/g, ' ').trim())
    .filter((l) => l && !/[:：]$/.test(l))
  const all = lines.join(' ')
  if (!all) return null
  if (all.length <= MESSAGE_CHARS) return all
  const cut = all.slice(0, MESSAGE_CHARS - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MESSAGE_CHARS / 2))}…`
}

export async function guestNotifications(ctx: AppContext, userId: number, paging: NotificationPaging, language = 'de') {
  const base = ctx.db.selectFrom('mail_outbox as m').where('m.user_id', '=', userId).where('m.visitor_id', 'is not', null)
  const [rows, total] = await Promise.all([
    base
      .leftJoin('event as e', 'e.id', 'm.event_id')
      .select(['m.id', 'm.kind', 'm.subject', 'm.status', 'm.created_at', 'm.sent_at', 'm.event_id', 'e.display_name as event_name', 'e.image_asset_id'])
      // the start of the mail's text is enough for its message
      .select(sql<string>`substr(m.text, 1, 2000)`.as('text_head'))
      .orderBy('m.user_id', 'desc')
      .orderBy('m.id', 'desc')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  const totalElements = Number(total?.n ?? 0)
  const notifications: GuestNotification[] = rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventName: r.event_name ?? null,
    // a mail rendered at delivery has no subject until it is sent: name it by its kind meanwhile
    title: r.subject || kindTitle(language, r.kind),
    date: r.sent_at ?? r.created_at,
    // every notification einlass sends is an e-mail (the outbox); push and SMS do not exist here
    type: 'EMAIL',
    failed: r.status === 'FAILED',
    message: mailExcerpt(r.text_head),
    image: r.image_asset_id ? `/proxy/api/asset/${r.image_asset_id}?dimension=Regular_400` : null,
    eventLink: r.event_id ? `/public/event/${r.event_id}` : null,
  }))
  return { notifications, totalElements, totalPages: Math.ceil(totalElements / paging.size), page: paging.page, size: paging.size }
}
