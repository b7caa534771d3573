// Who a mail comes from (agency-side.md §2.10, §3, §5): a sender per agency, with overrides per event
// and per guest. The most specific level that is set wins as a whole; licence features gate the
// custom name (MAIL_CUSTOM_SENDER_NAME) and the custom address (MAIL_CUSTOM).
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson } from '../../db/types'
import { AppError, fieldError } from '../../shared/errors'
import { hasFeature } from '../license/license'
import type { MailSenderRow, MailSettingsRow } from './mail.table'
import { domainOptions, fullAddress, senderFieldErrors } from './sender-rules'
import type { AgencySenderInput, LevelSenderInput, SenderChoice } from './settings-model'
import { listMailSettings, systemDomain } from './settings'

export type SenderLevel = { agencyId: number; eventId?: number | null; visitorId?: number | null }
const scopeOf = (l: SenderLevel) => (l.visitorId ? `V:${l.visitorId}` : l.eventId ? `E:${l.eventId}` : `A:${l.agencyId}`)

const choiceOf = (r: MailSenderRow | undefined): SenderChoice => ({ senderName: r?.sender_name ?? null, addressName: r?.address_name ?? null, addressDomain: r?.address_domain ?? null, mailSettingsId: r?.mail_settings_id ?? null })

async function senderRow(db: Db, l: SenderLevel) {
  return db.selectFrom('mail_sender').selectAll().where('scope', '=', scopeOf(l)).where('agency_id', '=', l.agencyId).executeTakeFirst()
}

export async function agencySender(ctx: AppContext, agencyId: number) {
  const c = choiceOf(await senderRow(ctx.db, { agencyId }))
  return { mailCustomSenderName: c.senderName, mailCustomSenderAddressName: c.addressName, mailCustomSenderAddressDomain: c.addressDomain ?? 'SYSTEM', mailSettingsId: c.mailSettingsId }
}

export async function levelSender(ctx: AppContext, l: SenderLevel) {
  const row = await senderRow(ctx.db, l)
  const c = choiceOf(row)
  return { override: !!row, mailSender: c.senderName, mailSenderAddressName: c.addressName, mailSenderAddressDomain: row ? (c.addressDomain ?? 'SYSTEM') : null, mailSettingsId: c.mailSettingsId }
}

/** Checks a choice against §5 and the licence; normalises it (SYSTEM carries no local part). */
async function checkedChoice(ctx: AppContext, agencyId: number, c: SenderChoice, keys: { name: string; address: string; domain: string }): Promise<SenderChoice> {
  const domain = c.mailSettingsId != null ? c.addressDomain : (c.addressDomain ?? 'SYSTEM')
  const choice: SenderChoice = { ...c, addressDomain: domain, addressName: domain === 'SYSTEM' ? null : c.addressName }
  if (choice.senderName && !hasFeature(ctx.license, 'MAIL_CUSTOM_SENDER_NAME')) throw new AppError(403, 'WRONG_ABO', { detail: 'MAIL_CUSTOM_SENDER_NAME' })
  if ((choice.mailSettingsId != null || choice.addressDomain === 'AGENCY') && !hasFeature(ctx.license, 'MAIL_CUSTOM')) throw new AppError(403, 'WRONG_ABO', { detail: 'MAIL_CUSTOM' })
  const settings = await listMailSettings(ctx.db, agencyId)
  const options = domainOptions(settings.map((s) => ({ id: s.id, type: s.type, domainName: s.domain_name, prefix: s.prefix, smtpDomains: fromJson(s.smtp_domains, []) })))
  const errors = senderFieldErrors(choice, { systemDomain: systemDomain(ctx), options, customName: hasFeature(ctx.license, 'MAIL_CUSTOM_SENDER_NAME') }, keys)
  if (errors.length) throw fieldError(errors)
  return choice
}

/** The widget's choices (agency-side.md §2.10): entries whose status is not OK carry the invalid marker. */
export async function senderOptions(ctx: AppContext, agencyId: number) {
  const settings = await listMailSettings(ctx.db, agencyId)
  const byId = new Map(settings.map((s) => [s.id, s]))
  const options = domainOptions(settings.map((s) => ({ id: s.id, type: s.type, domainName: s.domain_name, prefix: s.prefix, smtpDomains: fromJson(s.smtp_domains, []) })))
  return {
    systemName: ctx.config.mail.from_name,
    systemAddress: ctx.config.mail.from,
    systemDomain: systemDomain(ctx),
    customName: hasFeature(ctx.license, 'MAIL_CUSTOM_SENDER_NAME'),
    customAddress: hasFeature(ctx.license, 'MAIL_CUSTOM'),
    domains: options.map((o) => ({ ...o, displayName: byId.get(o.mailSettingsId!)!.display_name, mailSettingsStatus: byId.get(o.mailSettingsId!)!.status })),
  }
}

async function store(db: Db, l: SenderLevel, c: SenderChoice) {
  const values = { sender_name: c.senderName, address_name: c.addressName, address_domain: c.addressDomain, mail_settings_id: c.mailSettingsId }
  await db
    .insertInto('mail_sender')
    .values({ agency_id: l.agencyId, event_id: l.eventId ?? null, visitor_id: l.visitorId ?? null, scope: scopeOf(l), ...values })
    .onConflict((oc) => oc.column('scope').doUpdateSet(values))
    .execute()
}

export async function saveAgencySender(ctx: AppContext, agencyId: number, input: AgencySenderInput) {
  const c = await checkedChoice(
    ctx,
    agencyId,
    { senderName: input.mailCustomSenderName, addressName: input.mailCustomSenderAddressName, addressDomain: input.mailCustomSenderAddressDomain ?? null, mailSettingsId: input.mailSettingsId ?? null },
    { name: 'mailCustomSenderName', address: 'mailCustomSenderAddressName', domain: 'mailCustomSenderAddressDomain' },
  )
  await store(ctx.db, { agencyId }, c)
  return agencySender(ctx, agencyId)
}

/** Event or guest level; the caller has checked that the event or guest belongs to the agency. */
export async function saveLevelSender(ctx: AppContext, l: SenderLevel, input: LevelSenderInput) {
  if (!input.override) {
    await ctx.db.deleteFrom('mail_sender').where('scope', '=', scopeOf(l)).where('agency_id', '=', l.agencyId).execute()
    return levelSender(ctx, l)
  }
  const c = await checkedChoice(
    ctx,
    l.agencyId,
    { senderName: input.mailSender, addressName: input.mailSenderAddressName, addressDomain: input.mailSenderAddressDomain ?? null, mailSettingsId: input.mailSettingsId ?? null },
    { name: 'mailSender', address: 'mailSenderAddressName', domain: 'mailSenderAddressDomain' },
  )
  await store(ctx.db, l, c)
  return levelSender(ctx, l)
}

export interface ResolvedSender {
  name: string
  address: string
  /** the agency's SMTP server to send through; null = the server's own */
  smtp: MailSettingsRow | null
  /** DOMAIN settings whose key signs the mail */
  dkim: MailSettingsRow | null
  /** set when the chosen settings cannot be used: the mail fails with this, never another sender */
  unusable: string | null
}

/**
 * Mails einlass sends to the agency's own staff or to the server's support (a new registration, a
 * guest's report, feedback, a refund that failed): they come from einlass itself, not under the
 * agency's sender to guests.
 */
const STAFF_KINDS = new Set(['NEW_REGISTRATION', 'GUEST_REPORT', 'GUEST_REPORT_SUPPORT', 'SUPPORT_MESSAGE', 'FEEDBACK'])
export const isStaffMail = (kind: string) => STAFF_KINDS.has(kind) || kind.endsWith('_ORGANISER')

/** The sender of a mail about this agency / event / guest: the most specific level that is set. */
export async function resolveSender(ctx: AppContext, m: { kind: string; agency_id: number | null; event_id: number | null; visitor_id: number | null }): Promise<ResolvedSender> {
  const system: ResolvedSender = { name: ctx.config.mail.from_name, address: ctx.config.mail.from, smtp: null, dkim: null, unusable: null }
  if (m.agency_id == null || isStaffMail(m.kind)) return system
  const scopes = [m.visitor_id ? `V:${m.visitor_id}` : null, m.event_id ? `E:${m.event_id}` : null, `A:${m.agency_id}`].filter((s): s is string => !!s)
  const rows = await ctx.db.selectFrom('mail_sender').selectAll().where('scope', 'in', scopes).where('agency_id', '=', m.agency_id).execute()
  const row = scopes.map((s) => rows.find((r) => r.scope === s)).find(Boolean)
  if (!row) return system
  const c = choiceOf(row)
  const name = c.senderName && hasFeature(ctx.license, 'MAIL_CUSTOM_SENDER_NAME') ? c.senderName : system.name
  if (!hasFeature(ctx.license, 'MAIL_CUSTOM')) return { ...system, name }
  const address = fullAddress(c, systemDomain(ctx))
  if (!address) return { ...system, name }
  if (c.mailSettingsId == null) return { ...system, name, address }
  const settings = await ctx.db.selectFrom('mail_settings').selectAll().where('id', '=', c.mailSettingsId).where('agency_id', '=', m.agency_id).executeTakeFirst()
  if (!settings) return { ...system, name, address, unusable: 'MAIL_SETTINGS_GONE' }
  if (settings.type === 'SMTP') return { ...system, name, address, smtp: settings }
  if (settings.status !== 'OK') return { ...system, name, address, dkim: settings, unusable: `MAIL_SETTINGS_INVALID: ${settings.display_name}` }
  return { ...system, name, address, dkim: settings }
}
