// The outbox: a mail is written in the same transaction as what caused it; the worker delivers it.
import type { Db } from '../../db/database'
import { toJson } from '../../db/types'
import type { MailAttachment } from './mail.table'

export interface OutgoingMail {
  kind: string
  to: string
  toName?: string | null
  subject: string
  html: string
  text: string
  language?: string
  attachments?: MailAttachment[]
  agencyId?: number | null
  eventId?: number | null
  visitorId?: number | null
  userId?: number | null
}

export async function enqueueMail(db: Db, m: OutgoingMail): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      kind: m.kind,
      to_address: m.to,
      to_name: m.toName ?? null,
      subject: m.subject,
      html: m.html,
      text: m.text,
      language: m.language ?? 'de',
      attachments: toJson(m.attachments ?? []),
      agency_id: m.agencyId ?? null,
      event_id: m.eventId ?? null,
      visitor_id: m.visitorId ?? null,
      user_id: m.userId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
