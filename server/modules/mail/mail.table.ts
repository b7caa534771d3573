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
  /** the sender it went out under ("name <address>"), written at delivery (mail/sender.ts) */
  from_address: Generated<string | null>
  /** the id of the request that queued it (its log lines carry it); null outside a request */
  request_id: Generated<string | null>
  created_at: Generated<Timestamp>
  sent_at: Timestamp | null
}
export type MailOutboxRow = Selectable<MailOutboxTable>

export type MailSettingsType = 'SMTP' | 'DOMAIN'
export type SmtpTls = 'NONE' | 'STARTTLS' | 'TLS'

export interface MailSettingsTable {
  id: Id
  agency_id: number
  type: MailSettingsType
  display_name: string
  smtp_host: string | null
  smtp_port: number | null
  smtp_tls: SmtpTls | null
  smtp_user: string | null
  /** sealed (identity/secret-box.ts) */
  smtp_password: string | null
  smtp_domains: GenJson<Array<{ name: string; prefix: string | null }>>
  domain_name: string | null
  prefix: string | null
  dkim_selector: string | null
  /** PKCS#8 PEM, sealed */
  dkim_private_key: string | null
  /** base64 SPKI DER, as published in the DNS TXT record */
  dkim_public_key: string | null
  status: Generated<'OK' | 'INVALID'>
  status_message: string | null
  checked_at: Timestamp | null
  created_at: Generated<Timestamp>
}
export type MailSettingsRow = Selectable<MailSettingsTable>

export interface MailSenderTable {
  id: Id
  agency_id: number
  event_id: number | null
  visitor_id: number | null
  scope: string
  sender_name: string | null
  address_name: string | null
  address_domain: string | null
  mail_settings_id: number | null
}
export type MailSenderRow = Selectable<MailSenderTable>

export interface MailTextTable {
  id: Id
  agency_id: number
  kind: string
  language: string
  subject: string
  body: string
  updated_at: Generated<Timestamp>
}
export type MailTextRow = Selectable<MailTextTable>

export interface MailTables {
  mail_text: MailTextTable
  mail_outbox: MailOutboxTable
  mail_settings: MailSettingsTable
  mail_sender: MailSenderTable
}
