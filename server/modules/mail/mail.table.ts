import type { Generated, Selectable } from 'kysely'
import type { GenJson, Id, Timestamp } from '../../db/types'

export type MailStatus = 'PENDING' | 'SENT' | 'FAILED'

export interface MailAttachment {
  filename: string
  contentType: string
  /** base64 */
  content: string
}

export interface MailOutboxTable {
  id: Id
  agency_id: number | null
  event_id: number | null
  visitor_id: number | null
  user_id: number | null
  /** REGISTRATION_CONFIRMATION, ACCESS_LINK, TFA_CODE, … */
  kind: string
  to_address: string
  to_name: string | null
  /** empty until delivery when the mail is rendered from a template */
  subject: string
  html: string
  text: string
  /** rendered by the worker (mail/templates.ts): the template's name and its parameters (JSON) */
  template: string | null
  params: string | null
  attachments: GenJson<MailAttachment[]>
  language: Generated<string>
  status: Generated<MailStatus>
  attempts: Generated<number>
  next_attempt_at: Generated<Timestamp>
  locked_until: Timestamp | null
  last_error: string | null
  message_id: string | null
  /** the id of the request that queued it (its log lines carry it); null outside a request */
  request_id: Generated<string | null>
  created_at: Generated<Timestamp>
  sent_at: Timestamp | null
}
export type MailOutboxRow = Selectable<MailOutboxTable>

export interface MailTables {
  mail_outbox: MailOutboxTable
}
