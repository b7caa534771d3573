// Mail texts an agency may edit (docs/mail.md, "Mail texts"): per mail kind and language a subject and
// a body in place of the catalogue's default. The body is plain text: blank lines separate paragraphs,
// `{name}` placeholders of the kind are filled in, and everything is escaped by the mail layout
// (render.ts) like the default text — an agency never puts raw HTML into a mail.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { BRANCHES, PLURAL, interpolate } from '../../i18n/interpolate'
import { LANGUAGES } from '../../i18n/languages'
import { AppError, notFound } from '../../shared/errors'
import { mailGreeting } from './greeting'
import type { MailTextRow } from './mail.table'
import { renderMail } from './render'

export const MAX_MAIL_TEXT_SUBJECT = 200
export const MAX_MAIL_TEXT_BODY = 10_000

interface MailTextKind {
  kind: string
  subjectKey: string
  bodyKey: string
  buttonKey: string
  placeholders: string[]
}

const guestList = (k: string): MailTextKind => ({
  kind: k,
  subjectKey: `visitors.mail.${k}.subject`,
  bodyKey: `visitors.mail.${k}.text`,
  buttonKey: `visitors.mail.${k}.button`,
  placeholders: ['name', 'event', 'date', 'time', 'agency'],
})

/** The mails whose text an agency may replace, in the order the settings page lists them. */
export const MAIL_TEXT_KINDS: MailTextKind[] = [
  guestList('INVITATION'),
  {
    kind: 'REGISTRATION_CONFIRMATION',
    subjectKey: 'registration.mail.subject',
    bodyKey: 'registration.mail.confirmed',
    buttonKey: 'registration.mail.button',
    placeholders: ['name', 'event', 'date', 'time', 'agency'],
  },
  guestList('APPROVED'),
  guestList('PROMOTED'),
  guestList('DECLINED'),
  guestList('ACTIVATED'),
]

export const mailTextKind = (kind: string) => MAIL_TEXT_KINDS.find((k) => k.kind === kind)
export const MAIL_TEXT_LANGUAGES = LANGUAGES.map((l) => l.code)

/** The kind and language of a request, or 404 for one this server does not know. */
export function mailTextKey(kind: string, language: string): MailTextKind {
  const k = mailTextKind(kind)
  if (!k || !MAIL_TEXT_LANGUAGES.includes(language)) throw notFound()
  return k
}

function placeholderError(kind: MailTextKind, field: 'subject' | 'body', code: string, placeholder: string) {
  const message = t('de', `errors.MAIL_TEXT_${code}`, { placeholder, allowed: kind.placeholders.map((p) => `{${p}}`).join(', ') })
  return new AppError(400, 'FIELD_ERROR', { fields: [{ field, errorType: `MAIL_TEXT_${code}`, placeholder } as never], extra: { errorMessage: message, errorTranslation: message } })
}

/**
 * Refuses a text with a placeholder the kind does not know, braces that do not pair up, or a plural
 * that is not the ICU form `{n, plural, one {…} other {…}}` (with `other`) over a known placeholder.
 */
export function checkMailText(kind: MailTextKind, field: 'subject' | 'body', text: string) {
  const allowed = new Set(kind.placeholders)
  let rest = text.replace(PLURAL, (_m, k: string, body: string) => {
    if (!allowed.has(k)) throw placeholderError(kind, field, 'UNKNOWN_PLACEHOLDER', k)
    const branches = [...body.matchAll(BRANCHES)].map((b) => b[1])
    if (!branches.includes('other')) throw placeholderError(kind, field, 'INVALID_PLURAL', k)
    for (const b of body.matchAll(BRANCHES)) for (const inner of b[2].matchAll(/\{(\w+)\}/g)) if (!allowed.has(inner[1])) throw placeholderError(kind, field, 'UNKNOWN_PLACEHOLDER', inner[1])
    return ''
  })
  // a plural the pattern above did not take is malformed
  const plural = /\{\s*(\w+)\s*,\s*plural\b/.exec(rest)
  if (plural) throw placeholderError(kind, field, 'INVALID_PLURAL', plural[1])
  rest = rest.replace(/\{([^{}]*)\}/g, (_m, k: string) => {
    if (!/^\w+$/.test(k) || !allowed.has(k)) throw placeholderError(kind, field, 'UNKNOWN_PLACEHOLDER', k)
    return ''
  })
  const stray = /[{}]/.exec(rest)
  if (stray) throw placeholderError(kind, field, 'UNBALANCED_BRACES', stray[0])
}

export async function mailTextOverride(db: Db, agencyId: number, kind: string, language: string): Promise<MailTextRow | undefined> {
  return db.selectFrom('mail_text').selectAll().where('agency_id', '=', agencyId).where('kind', '=', kind).where('language', '=', language).executeTakeFirst()
}

/** Every kind with its default text in the language, the agency's own text if any, and the placeholders. */
export async function listMailTexts(ctx: AppContext, agencyId: number, language: string) {
  if (!MAIL_TEXT_LANGUAGES.includes(language)) throw notFound()
  const rows = await ctx.db.selectFrom('mail_text').selectAll().where('agency_id', '=', agencyId).where('language', '=', language).execute()
  return {
    language,
    items: MAIL_TEXT_KINDS.map((k) => {
      const own = rows.find((r) => r.kind === k.kind)
      return {
        kind: k.kind,
        placeholders: k.placeholders,
        defaultText: { subject: t(language, k.subjectKey), body: t(language, k.bodyKey) },
        override: own ? { subject: own.subject, body: own.body, updatedAt: own.updated_at } : null,
      }
    }),
  }
}

export interface MailTextInput {
  subject: string
  body: string
}

export function checkMailTextInput(kind: MailTextKind, input: MailTextInput) {
  checkMailText(kind, 'subject', input.subject)
  checkMailText(kind, 'body', input.body)
}

export async function saveMailText(ctx: AppContext, agencyId: number, kindName: string, language: string, input: MailTextInput) {
  const kind = mailTextKey(kindName, language)
  checkMailTextInput(kind, input)
  const now = isoNow(ctx.clock.now())
  await ctx.db
    .insertInto('mail_text')
    .values({ agency_id: agencyId, kind: kind.kind, language, subject: input.subject, body: input.body, updated_at: now })
    .onConflict((oc) => oc.columns(['agency_id', 'kind', 'language']).doUpdateSet({ subject: input.subject, body: input.body, updated_at: now }))
    .execute()
  return (await listMailTexts(ctx, agencyId, language)).items.find((i) => i.kind === kind.kind)!
}

export async function resetMailText(ctx: AppContext, agencyId: number, kindName: string, language: string) {
  const kind = mailTextKey(kindName, language)
  await ctx.db.deleteFrom('mail_text').where('agency_id', '=', agencyId).where('kind', '=', kind.kind).where('language', '=', language).execute()
  return (await listMailTexts(ctx, agencyId, language)).items.find((i) => i.kind === kind.kind)!
}

/**
 * The subject and the first paragraphs of a mail of the kind: the agency's own text when it has one
 * for the language (blank lines split it into paragraphs), else the catalogue's.
 */
export async function mailTextFor(db: Db, agencyId: number | null, kindName: string, language: string, params: Record<string, string | number>, defaults?: { subjectKey?: string; bodyKey?: string }) {
  const kind = mailTextKind(kindName)!
  const own = agencyId ? await mailTextOverride(db, agencyId, kind.kind, language) : undefined
  if (own)
    return {
      subject: interpolate(own.subject, params, language).replace(/\s+/g, ' ').trim(),
      paragraphs: interpolate(own.body, params, language)
        .split(/\r?\n\s*\r?\n/)
        .map((p) => p.trim())
        .filter(Boolean),
    }
  return { subject: t(language, defaults?.subjectKey ?? kind.subjectKey, params), paragraphs: [t(language, defaults?.bodyKey ?? kind.bodyKey, params)] }
}

/** The mail as a guest would get it, with sample values, for text not saved yet; nothing is sent. */
export async function previewMailText(ctx: AppContext, agencyId: number, kindName: string, language: string, input: MailTextInput) {
  const kind = mailTextKey(kindName, language)
  checkMailTextInput(kind, input)
  const agency = (await ctx.db.selectFrom('agency').select('display_name').where('id', '=', agencyId).executeTakeFirst())?.display_name ?? ''
  const params = { name: 'Dr. Erika Mustermann', event: 'Sommerfest', date: '12.06.2027', time: '18:00', agency }
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=…`
  const paragraphs = interpolate(input.body, params, language)
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
  return renderMail({
    subject: interpolate(input.subject, params, language).replace(/\s+/g, ' ').trim(),
    greeting: mailGreeting(language, { salutation: 'Frau', title: 'Dr.', firstName: 'Erika', lastName: 'Mustermann' }),
    paragraphs,
    button: { label: t(language, kind.buttonKey), url },
    after: [t(language, 'mail.linkFallback', { url })],
    footer: t(language, 'mail.footer', { agency }),
  })
}
