// Checking mail settings for real (docs/mail.md): SMTP by logging in and sending a test mail through
// the agency's server; DOMAIN by reading its SPF and DKIM records from DNS (EINLASS_DNS_RESOLVER).
import { Resolver } from 'node:dns/promises'
import type { AppContext } from '../../context'
import { fromJson, isoNow } from '../../db/types'
import type { MailSettingsRow } from './mail.table'
import { splitPrefixes } from './settings-model'
import { mailSettingsOfAgency, smtpPassword, systemDomain } from './settings'

export interface CheckResult {
  ok: boolean
  /** MAIL_SPF_MISSING, MAIL_DKIM_MISSING, MAIL_DKIM_MISMATCH, MAIL_DNS_FAILED, SMTP_LOGIN_FAILED, SMTP_SEND_FAILED */
  code: string | null
  /** the server's own answer, when there is one */
  detail: string | null
}

/** A one-connection transport to an agency's SMTP server (also used for delivery, pooled there). */
export function agencyTransportOptions(ctx: AppContext, row: MailSettingsRow, pool: boolean) {
  const password = smtpPassword(ctx, row)
  return {
    host: row.smtp_host!,
    port: row.smtp_port!,
    secure: row.smtp_tls === 'TLS',
    requireTLS: row.smtp_tls === 'STARTTLS',
    ignoreTLS: row.smtp_tls === 'NONE',
    auth: row.smtp_user ? { user: row.smtp_user, pass: password ?? '' } : undefined,
    pool,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  }
}

const answerOf = (e: unknown) => String((e as any)?.response ?? (e as Error)?.message ?? e).slice(0, 500)

export async function checkSmtp(ctx: AppContext, row: MailSettingsRow, testRecipient: string): Promise<CheckResult> {
  const transport = (await import('nodemailer')).default.createTransport(agencyTransportOptions(ctx, row, false) as any)
  try {
    try {
      await transport.verify()
    } catch (e) {
      return { ok: false, code: 'SMTP_LOGIN_FAILED', detail: answerOf(e) }
    }
    const domain = fromJson<Array<{ name: string; prefix: string | null }>>(row.smtp_domains, [])[0]
    const local = `${splitPrefixes(domain?.prefix)[0] ?? ''}einlass-test`
    try {
      await transport.sendMail({
        from: { name: row.display_name, address: `${local}@${domain?.name ?? systemDomain(ctx)}` },
        to: testRecipient,
        subject: 'einlass: Test der Mail-Einstellungen',
        text: `Diese Test-E-Mail wurde über den SMTP-Server ${row.smtp_host}:${row.smtp_port} der Mail-Einstellung „${row.display_name}“ versendet. Die Einstellung ist einsatzbereit.`,
      })
    } catch (e) {
      return { ok: false, code: 'SMTP_SEND_FAILED', detail: answerOf(e) }
    }
    return { ok: true, code: null, detail: null }
  } finally {
    transport.close()
  }
}

function resolver(ctx: AppContext): Resolver {
  const r = new Resolver({ timeout: 3000, tries: 2 })
  if (ctx.config.mail.dns_resolver) r.setServers([ctx.config.mail.dns_resolver])
  return r
}

/**
 * The TXT records of a name, each one string. A record longer than 255 bytes (every 2048-bit DKIM
 * key) comes in strings of 255 bytes; Bun's resolver answers each string as a record of its own, so
 * a string that follows a full 255-byte one and does not start a record ("v=…") is joined to it.
 */
export function joinTxt(answer: string[][]): string[] {
  const out: string[] = []
  let last = ''
  for (const record of answer) {
    const part = record.join('')
    if (out.length && Buffer.byteLength(last) === 255 && !/^v=/i.test(part)) out[out.length - 1] += part
    else out.push(part)
    last = record.at(-1) ?? ''
  }
  return out
}

async function txt(r: Resolver, name: string): Promise<string[] | null> {
  try {
    return joinTxt(await r.resolveTxt(name))
  } catch (e) {
    const code = (e as any)?.code
    if (code === 'ENOTFOUND' || code === 'ENODATA') return null
    throw e
  }
}

export async function checkDomain(ctx: AppContext, row: MailSettingsRow): Promise<CheckResult> {
  const r = resolver(ctx)
  try {
    const include = `include:${systemDomain(ctx)}`
    const spf = (await txt(r, row.domain_name!))?.filter((v) => /^v=spf1(\s|$)/i.test(v)) ?? []
    if (!spf.some((v) => v.toLowerCase().split(/\s+/).includes(include))) return { ok: false, code: 'MAIL_SPF_MISSING', detail: spf[0] ?? null }
    const dkim = (await txt(r, `${row.dkim_selector}._domainkey.${row.domain_name}`)) ?? []
    if (!dkim.length) return { ok: false, code: 'MAIL_DKIM_MISSING', detail: null }
    const keyOf = (v: string) => /(?:^|;)\s*p=([^;]*)/.exec(v)?.[1]?.replace(/\s+/g, '') ?? ''
    if (!dkim.some((v) => keyOf(v) === row.dkim_public_key)) return { ok: false, code: 'MAIL_DKIM_MISMATCH', detail: dkim[0]!.slice(0, 200) }
    return { ok: true, code: null, detail: null }
  } catch (e) {
    return { ok: false, code: 'MAIL_DNS_FAILED', detail: String((e as any)?.code ?? (e as Error)?.message ?? e) }
  }
}

/** Runs the check and stores its outcome; the answer is the settings row as it is now. */
export async function checkMailSettings(ctx: AppContext, agencyId: number, id: number, testRecipient: string): Promise<MailSettingsRow> {
  const row = await mailSettingsOfAgency(ctx.db, agencyId, id)
  const result = row.type === 'SMTP' ? await checkSmtp(ctx, row, testRecipient) : await checkDomain(ctx, row)
  const message = result.code ? (result.detail ? `${result.code}: ${result.detail}` : result.code) : null
  // only when what was checked is still what is stored: a change during the check keeps INVALID
  let q = ctx.db.updateTable('mail_settings').set({ status: result.ok ? 'OK' : 'INVALID', status_message: message, checked_at: isoNow(ctx.clock.now()) }).where('id', '=', id)
  q = row.type === 'SMTP' ? q.where('smtp_host', '=', row.smtp_host).where('smtp_port', '=', row.smtp_port).where('smtp_tls', '=', row.smtp_tls).where('smtp_password', 'is not distinct from', row.smtp_password).where('smtp_user', 'is not distinct from', row.smtp_user) : q.where('domain_name', '=', row.domain_name)
  const updated = await q.returningAll().executeTakeFirst()
  return updated ?? mailSettingsOfAgency(ctx.db, agencyId, id)
}
