// The outbox: a mail is written in the same transaction as what caused it; the worker delivers it.
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'
import { toJson } from '../../db/types'
import { currentRequest } from '../../http/request-context'
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

// every registration queues one: compiled once (db/prepared.ts)
const insertMail = prepared((db, p: { kind: string; to: string; toName: string | null; subject: string; html: string; text: string; language: string; attachments: string; agencyId: number | null; eventId: number | null; visitorId: number | null; userId: number | null; requestId: string | null }) =>
  db
    .insertInto('mail_outbox')
    .values({
      kind: p.kind,
      to_address: p.to,
      to_name: p.toName,
      subject: p.subject,
      html: p.html,
      text: p.text,
      language: p.language,
      attachments: p.attachments,
      agency_id: p.agencyId,
      event_id: p.eventId,
      visitor_id: p.visitorId,
      user_id: p.userId,
      request_id: p.requestId,
    })
    .returning('id'),
)

export async function enqueueMail(db: Db, m: OutgoingMail): Promise<number> {
  const row = await insertMail.first(db, {
    kind: m.kind,
    to: m.to,
    toName: m.toName ?? null,
    subject: m.subject,
    html: m.html,
    text: m.text,
    language: m.language ?? 'de',
    attachments: toJson(m.attachments ?? []),
    agencyId: m.agencyId ?? null,
    eventId: m.eventId ?? null,
    visitorId: m.visitorId ?? null,
    userId: m.userId ?? null,
    requestId: currentRequest()?.reqId ?? null,
  })
  return row!.id
}

export interface OutgoingTemplateMail {
  kind: string
  to: string
  toName?: string | null
  /** a name registered with registerMailTemplate (mail/templates.ts) */
  template: string
  /** what the renderer needs besides the row (JSON); the database is read at delivery */
  params: unknown
  language?: string
  agencyId?: number | null
  eventId?: number | null
  visitorId?: number | null
  userId?: number | null
}

const insertTemplateMail = prepared((db, p: { kind: string; to: string; toName: string | null; template: string; params: string; language: string; agencyId: number | null; eventId: number | null; visitorId: number | null; userId: number | null; requestId: string | null }) =>
  db
    .insertInto('mail_outbox')
    .values({
      kind: p.kind,
      to_address: p.to,
      to_name: p.toName,
      subject: '',
      html: '',
      text: '',
      template: p.template,
      params: p.params,
      language: p.language,
      attachments: '[]',
      agency_id: p.agencyId,
      event_id: p.eventId,
      visitor_id: p.visitorId,
      user_id: p.userId,
      request_id: p.requestId,
    })
    .returning('id'),
)

/** Queues a mail the worker renders when it delivers it (mail/templates.ts); same transaction rules as enqueueMail. */
export async function enqueueTemplateMail(db: Db, m: OutgoingTemplateMail): Promise<number> {
  const row = await insertTemplateMail.first(db, {
    kind: m.kind,
    to: m.to,
    toName: m.toName ?? null,
    template: m.template,
    params: toJson(m.params),
    language: m.language ?? 'de',
    agencyId: m.agencyId ?? null,
    eventId: m.eventId ?? null,
    visitorId: m.visitorId ?? null,
    userId: m.userId ?? null,
    requestId: currentRequest()?.reqId ?? null,
  })
  return row!.id
}
