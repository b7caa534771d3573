// Mails rendered at delivery. A use case that sends many mails on a hot path (a registration's
// confirmation) queues the template's name and its parameters in its transaction — the outbox
// guarantee is the same: written with its cause or not at all — and the worker renders the mail
// when it sends it, from what the parameters and the database say then. The module that owns the
// mail registers its renderer when it is loaded (every process that queues one has loaded it).
import type { AppContext } from '../../context'
import { fromJson } from '../../db/types'
import type { MailAttachment, MailOutboxRow } from './mail.table'

export interface RenderedMail {
  subject: string
  html: string
  text: string
  /** files built at delivery (sent besides the row's own; rendering twice must not change anything) */
  attachments?: MailAttachment[]
}

export type MailTemplate<P = any> = (ctx: AppContext, mail: MailOutboxRow, params: P) => Promise<RenderedMail>

/** What the mail was about is gone (e.g. the registration was deleted): FAILED at once, no retries. */
export class MailSubjectGone extends Error {}

const templates = new Map<string, MailTemplate>()

export function registerMailTemplate<P>(name: string, render: MailTemplate<P>) {
  templates.set(name, render as MailTemplate)
}

/** The subject and bodies to send for an outbox row (rendered now when it was queued as a template). */
export async function renderOutboxMail(ctx: AppContext, m: MailOutboxRow): Promise<RenderedMail> {
  if (!m.template) return { subject: m.subject, html: m.html, text: m.text }
  const render = templates.get(m.template)
  if (!render) throw new Error(`unknown mail template ${m.template}`)
  return render(ctx, m, fromJson<unknown>(m.params, {}))
}
