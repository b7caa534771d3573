// An agency's mail settings (agency-side.md §3, §7): its own SMTP server, or a sending domain of its
// own that einlass signs for (DKIM key generated here). Status is INVALID until a check passed
// (settings-check.ts); every change to what the check covered sets it back to INVALID.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, toJson } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { open, seal } from '../identity/secret-box'
import type { MailSettingsRow } from './mail.table'
import type { MailSettingsInput } from './settings-model'

export const SMTP_PASSWORD = 'mail_settings.smtp_password'
export const DKIM_KEY = 'mail_settings.dkim_private_key'

export interface DnsRecord {
  type: 'TXT'
  name: string
  value: string
  /** what it is for: SPF or DKIM */
  purpose: 'SPF' | 'DKIM'
}

/** The domain of the server's own sender address: the provider domain of §5, included by SPF. */
export const systemDomain = (ctx: AppContext) => ctx.config.mail.from.split('@')[1]!.toLowerCase()

export function dnsRecords(ctx: AppContext, row: MailSettingsRow): DnsRecord[] {
  if (row.type !== 'DOMAIN' || !row.domain_name) return []
  return [
    { type: 'TXT', name: row.domain_name, value: `v=spf1 include:${systemDomain(ctx)} ~all`, purpose: 'SPF' },
    { type: 'TXT', name: `${row.dkim_selector}._domainkey.${row.domain_name}`, value: `v=DKIM1; k=rsa; p=${row.dkim_public_key}`, purpose: 'DKIM' },
  ]
}

export function mailSettingsDto(ctx: AppContext, row: MailSettingsRow) {
  const base = {
    id: row.id,
    type: row.type,
    displayName: row.display_name,
    mailSettingsStatus: row.status,
    /** why the last check failed (a code the UI names, mail.check.<code>) and the server's answer */
    statusCode: row.status_message ? row.status_message.split(':')[0]! : null,
    statusMessage: row.status_message?.includes(': ') ? row.status_message.slice(row.status_message.indexOf(': ') + 2) : null,
    checkedAt: row.checked_at,
  }
  if (row.type === 'SMTP')
    return {
      ...base,
      host: row.smtp_host,
      port: row.smtp_port,
      tlsMode: row.smtp_tls,
      user: row.smtp_user,
      /** the password is never sent back; this says whether one is stored */
      passwordSet: !!row.smtp_password,
      smtpDomains: fromJson<Array<{ name: string; prefix: string | null }>>(row.smtp_domains, []),
    }
  return { ...base, domainName: row.domain_name, prefix: row.prefix, dkimSelector: row.dkim_selector, dnsRecords: dnsRecords(ctx, row) }
}
export type MailSettingsDto = ReturnType<typeof mailSettingsDto>

export async function mailSettingsOfAgency(db: Db, agencyId: number, id: number): Promise<MailSettingsRow> {
  const row = await db.selectFrom('mail_settings').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row || row.agency_id !== agencyId) throw notFound()
  return row
}

export async function listMailSettings(db: Db, agencyId: number): Promise<MailSettingsRow[]> {
  return db.selectFrom('mail_settings').selectAll().where('agency_id', '=', agencyId).orderBy('display_name').orderBy('id').execute()
}

export async function searchMailSettings(ctx: AppContext, agencyId: number, o: { search?: string; page: number; perPage: number }) {
  let q = ctx.db.selectFrom('mail_settings').where('agency_id', '=', agencyId)
  if (o.search) q = q.where('display_name', 'like', `%${o.search.replace(/[%_]/g, '')}%`)
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('display_name').orderBy('id').limit(o.perPage).offset(o.page * o.perPage).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return { items: rows.map((r) => mailSettingsDto(ctx, r)), total: Number(total?.n ?? 0), page: o.page, perPage: o.perPage }
}

function newDkimKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    selector: `einlass${randomBytes(3).toString('hex')}`,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicB64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  }
}

export async function createMailSettings(ctx: AppContext, agencyId: number, input: MailSettingsInput): Promise<MailSettingsRow> {
  if (input.type === 'SMTP')
    return ctx.db
      .insertInto('mail_settings')
      .values({
        agency_id: agencyId,
        type: 'SMTP',
        display_name: input.displayName,
        smtp_host: input.host,
        smtp_port: input.port,
        smtp_tls: input.tlsMode,
        smtp_user: input.user,
        smtp_password: input.password ? seal(ctx.secrets, input.password, SMTP_PASSWORD) : null,
        smtp_domains: toJson(input.smtpDomains),
        status_message: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  const key = newDkimKey()
  return ctx.db
    .insertInto('mail_settings')
    .values({
      agency_id: agencyId,
      type: 'DOMAIN',
      display_name: input.displayName,
      domain_name: input.domainName,
      prefix: input.prefix,
      dkim_selector: key.selector,
      dkim_private_key: seal(ctx.secrets, key.privatePem, DKIM_KEY),
      dkim_public_key: key.publicB64,
      smtp_domains: '[]',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateMailSettings(ctx: AppContext, agencyId: number, id: number, input: MailSettingsInput): Promise<MailSettingsRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await mailSettingsOfAgency(trx, agencyId, id)
    if (row.type !== input.type) throw new AppError(400, 'MAIL_SETTINGS_TYPE_FIXED')
    if (input.type === 'SMTP') {
      const password = input.password === undefined ? row.smtp_password : input.password ? seal(ctx.secrets, input.password, SMTP_PASSWORD) : null
      const domains = toJson(input.smtpDomains)
      const connectionChanged = row.smtp_host !== input.host || row.smtp_port !== input.port || row.smtp_tls !== input.tlsMode || row.smtp_user !== input.user || password !== row.smtp_password
      await assertDomainsStillUsed(trx, id, input.smtpDomains.map((d) => d.name))
      return trx
        .updateTable('mail_settings')
        .set({
          display_name: input.displayName,
          smtp_host: input.host,
          smtp_port: input.port,
          smtp_tls: input.tlsMode,
          smtp_user: input.user,
          smtp_password: password,
          smtp_domains: domains,
          ...(connectionChanged ? { status: 'INVALID' as const, status_message: null, checked_at: null } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    }
    const domainChanged = row.domain_name !== input.domainName
    if (domainChanged) await assertDomainsStillUsed(trx, id, [input.domainName])
    return trx
      .updateTable('mail_settings')
      .set({ display_name: input.displayName, domain_name: input.domainName, prefix: input.prefix, ...(domainChanged ? { status: 'INVALID' as const, status_message: null, checked_at: null } : {}) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

/** A sender that names one of the settings' domains keeps working: removing that domain is refused. */
async function assertDomainsStillUsed(db: Db, settingsId: number, domains: string[]) {
  const users = await db.selectFrom('mail_sender').select('address_domain').where('mail_settings_id', '=', settingsId).execute()
  if (users.some((u) => u.address_domain && !domains.includes(u.address_domain))) throw new AppError(409, 'MAIL_SETTINGS_IN_USE')
}

export async function deleteMailSettings(ctx: AppContext, agencyId: number, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await mailSettingsOfAgency(trx, agencyId, id)
    // a sender using it would otherwise go out under another address without anyone deciding so
    const used = await trx.selectFrom('mail_sender').select('id').where('mail_settings_id', '=', id).executeTakeFirst()
    if (used) throw new AppError(409, 'MAIL_SETTINGS_IN_USE')
    await trx.deleteFrom('mail_settings').where('id', '=', id).execute()
  })
}

export const smtpPassword = (ctx: AppContext, row: MailSettingsRow) => (row.smtp_password ? open(ctx.secrets, row.smtp_password, SMTP_PASSWORD) : null)
export const dkimPrivateKey = (ctx: AppContext, row: MailSettingsRow) => (row.dkim_private_key ? open(ctx.secrets, row.dkim_private_key, DKIM_KEY) : null)
