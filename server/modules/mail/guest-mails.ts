// The organiser's view of a guest's mails: what went out, under which sender, and what failed with
// the receiving (or the agency's) server's answer.
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import type { EventVisitorRow } from '../visitors/visitors.table'

export async function guestMails(ctx: AppContext, v: EventVisitorRow) {
  const rows = await ctx.db
    .selectFrom('mail_outbox')
    .select(['id', 'kind', 'subject', 'to_address', 'status', 'attempts', 'last_error', 'from_address', 'created_at', 'sent_at'])
    .where('visitor_id', '=', v.id)
    .orderBy('id', 'desc')
    .limit(100)
    .execute()
  return {
    mailError: bool(v.mail_error),
    mailErrorText: v.mail_error_text,
    items: rows.map((r) => ({ id: r.id, kind: r.kind, subject: r.subject, to: r.to_address, status: r.status, attempts: r.attempts, lastError: r.last_error, from: r.from_address, createdAt: r.created_at, sentAt: r.sent_at })),
  }
}
