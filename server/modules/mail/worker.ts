// Delivers the outbox over SMTP with retries and backoff. Several server processes may run a worker
// against one Postgres: a mail is claimed by a conditional update, so only one sends it.
import type { Transporter } from 'nodemailer'
import type { AppContext } from '../../context'
import { fromJson, isoNow } from '../../db/types'
import { serialPasses } from '../tasks/passes'
import type { MailAttachment, MailOutboxRow, MailSettingsRow } from './mail.table'
import { resolveSender } from './sender'
import { dkimPrivateKey } from './settings'
import { agencyTransportOptions } from './settings-check'
import { MailSubjectGone, renderOutboxMail } from './templates'

/** The chosen sender cannot be used (its settings are gone or not checked OK): the mail fails, never goes out under another sender. */
class SenderUnusable extends Error {}

/**
 * Whether a failure says the recipient's address does not work (a bounce at send time): the
 * receiving server refused the recipient or the message for good. A refused login, a connection
 * that failed or an unusable sender are the sender's problem, not the guest's address.
 */
export function isBounce(e: unknown): boolean {
  const err = e as { responseCode?: number; code?: string; command?: string }
  if (!err || err.code === 'EAUTH' || err.code === 'ECONNECTION' || err.code === 'ETIMEDOUT' || err.code === 'ESOCKET' || err.code === 'EDNS' || e instanceof SenderUnusable || e instanceof MailSubjectGone) return false
  return true
}

/** Delay before attempt n+1 after n failures; after the last one the mail is FAILED. */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 12 * 3600_000]
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1
/** wake() gathers the wake-ups of this long into one pass */
export const WAKE_DELAY_MS = 50
const BATCH = 20

export interface MailWorker {
  wake(): void
  /** one pass over due mails; returns how many were handled */
  runOnce(): Promise<number>
  stop(): Promise<void>
}

/** nodemailer, loaded on first use: a process without SMTP settings never evaluates it (issue 25). */
let nodemailerModule: Promise<typeof import('nodemailer').default> | null = null
export const nodemailer = () => (nodemailerModule ??= import('nodemailer').then((m) => m.default))

/** A pooled SMTP connection: a batch of mails goes over a few kept-open sessions, not one each. */
export async function createTransport(smtpUrl: string): Promise<Transporter> {
  return (await nodemailer()).createTransport({ url: smtpUrl, pool: true, maxConnections: 2, maxMessages: 200, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as any)
}

export function startMailWorker(ctx: AppContext, opts: { intervalMs?: number; transport?: Transporter | null; autoStart?: boolean } = {}): MailWorker {
  // the SMTP transport (and nodemailer with it) is made on the first pass, not at start (issue 25)
  let transport: Transporter | null = opts.transport !== undefined ? opts.transport : null
  let smtpUrl = opts.transport === undefined ? ctx.config.mail.smtp_url : null
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  let warnedNoSmtp = false
  // one pooled transport per agency SMTP setting, replaced when the setting's connection changes
  const agencyTransports = new Map<number, { key: string; transport: Transporter }>()
  async function agencyTransport(row: MailSettingsRow): Promise<Transporter> {
    const key = [row.smtp_host, row.smtp_port, row.smtp_tls, row.smtp_user, row.smtp_password].join('|')
    const known = agencyTransports.get(row.id)
    if (known?.key === key) return known.transport
    known?.transport.close()
    const transport = (await nodemailer()).createTransport(agencyTransportOptions(ctx, row, true) as any)
    agencyTransports.set(row.id, { key, transport })
    return transport
  }
  const interval = opts.intervalMs ?? 5000
  // a claimed batch is this process's for the task lease (tasks.lease_seconds), renewed every third
  // of it while the batch is delivered: after a crash another process sends what is left once the
  // lease has run out (a mail whose SMTP answer came but whose SENT was not written goes again:
  // the one window where a crash can mean a mail twice)
  const CLAIM_MS = (ctx.config.tasks?.lease_seconds ?? 60) * 1000

  /**
   * Locks up to BATCH due mails for this worker. Candidates are read first, then locked by a
   * conditional update: a mail another worker locked in between drops out, and when all of them
   * did, the next candidates are tried, so a worker does not stop while mails are still due.
   */
  async function claim(): Promise<MailOutboxRow[]> {
    for (let round = 0; round < 5; round++) {
      const now = isoNow(ctx.clock.now())
      const until = isoNow(new Date(ctx.clock.now().getTime() + CLAIM_MS))
      const due = await ctx.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'PENDING')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('id')
        .limit(BATCH)
        .execute()
      if (!due.length) return []
      const claimed = await ctx.db
        .updateTable('mail_outbox')
        .set({ locked_until: until })
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .where('status', '=', 'PENDING')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .returningAll()
        .execute()
      if (claimed.length) return claimed
    }
    return []
  }

  async function deliver(m: MailOutboxRow) {
    const attachments = fromJson<MailAttachment[]>(m.attachments, [])
    let fromAddress: string | null = null
    try {
      // the sender as configured now: a change of sender applies to mails still waiting
      const sender = await resolveSender(ctx, m)
      fromAddress = `${sender.name} <${sender.address}>`
      if (sender.unusable) throw new SenderUnusable(sender.unusable)
      // a mail queued as a template is rendered now; the row keeps what was sent
      const body = await renderOutboxMail(ctx, m)
      const via = sender.smtp ? await agencyTransport(sender.smtp) : transport!
      const info = await via.sendMail({
        from: { name: sender.name, address: sender.address },
        ...(sender.dkim ? { dkim: { domainName: sender.dkim.domain_name!, keySelector: sender.dkim.dkim_selector!, privateKey: dkimPrivateKey(ctx, sender.dkim)! } } : {}),
        to: m.to_name ? { name: m.to_name, address: m.to_address } : m.to_address,
        subject: body.subject,
        html: body.html,
        text: body.text,
        attachments: [...attachments, ...(body.attachments ?? [])].map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
      })
      await ctx.db
        .updateTable('mail_outbox')
        .set({
          status: 'SENT',
          sent_at: isoNow(ctx.clock.now()),
          message_id: info.messageId ?? null,
          locked_until: null,
          attempts: m.attempts + 1,
          last_error: null,
          from_address: fromAddress,
          ...(m.template ? { subject: body.subject, html: body.html, text: body.text } : {}),
        })
        .where('id', '=', m.id)
        .execute()
      // the guest's address took a mail: an earlier refusal no longer says it fails
      if (m.visitor_id) await ctx.db.updateTable('event_visitor').set({ mail_error: false, mail_error_text: null }).where('id', '=', m.visitor_id).where('mail_error', '=', true as never).execute()
      ctx.log.info('mail sent', { mailId: m.id, kind: m.kind, reqId: m.request_id })
    } catch (e) {
      const attempts = m.attempts + 1
      const error = String((e as Error)?.message ?? e).slice(0, 500)
      const permanent = /^5\d\d/.test(String((e as any)?.responseCode ?? '')) && (e as any)?.responseCode !== 552
      const failed = permanent || attempts >= MAX_ATTEMPTS || e instanceof MailSubjectGone || e instanceof SenderUnusable
      const bounce = failed && isBounce(e)
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('mail_outbox')
          .set({
            status: failed ? 'FAILED' : 'PENDING',
            attempts,
            last_error: error,
            from_address: fromAddress,
            locked_until: null,
            next_attempt_at: isoNow(new Date(ctx.clock.now().getTime() + (BACKOFF_MS[attempts - 1] ?? 0))),
          })
          .where('id', '=', m.id)
          .execute()
        if (bounce && m.visitor_id) await trx.updateTable('event_visitor').set({ mail_error: true, mail_error_text: error }).where('id', '=', m.visitor_id).execute()
      })
      ctx.log.warn('mail delivery failed', { mailId: m.id, reqId: m.request_id, attempts, final: failed, error })
    }
  }

  async function pass(): Promise<number> {
    if (!transport && smtpUrl) {
      transport = await createTransport(smtpUrl)
      smtpUrl = null
    }
    if (!transport) {
      if (!warnedNoSmtp) {
        const pending = await ctx.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'PENDING').executeTakeFirst()
        if (Number(pending?.n ?? 0) > 0) {
          ctx.log.warn('SMTP_URL is not set: mails stay in the outbox until it is', { pending: Number(pending?.n) })
          warnedNoSmtp = true
        }
      }
      return 0
    }
    let handled = 0
    for (;;) {
      const batch = await claim()
      if (!batch.length) break
      const left = new Set(batch.map((m) => m.id))
      let held = batch[0].locked_until!
      const heartbeat = setInterval(() => {
        const ids = [...left]
        if (!ids.length) return
        const next = isoNow(new Date(ctx.clock.now().getTime() + CLAIM_MS))
        void ctx.db
          .updateTable('mail_outbox')
          .set({ locked_until: next })
          .where('id', 'in', ids)
          .where('status', '=', 'PENDING')
          .where('locked_until', '=', held)
          .execute()
          .then(() => (held = next))
          .catch(() => {})
      }, CLAIM_MS / 3)
      try {
        for (const m of batch) {
          // stopping (SIGTERM): the mail being sent is finished, the rest of the batch given back below
          if (stopped) break
          await deliver(m)
          left.delete(m.id)
        }
      } finally {
        clearInterval(heartbeat)
        // what this worker claimed and did not send is released at once, not after its lease: another
        // process sends it right away (only rows still under this claim, never one taken over since)
        if (left.size)
          await ctx.db
            .updateTable('mail_outbox')
            .set({ locked_until: null })
            .where('id', 'in', [...left])
            .where('status', '=', 'PENDING')
            .where('locked_until', '=', held)
            .execute()
            .catch((e) => ctx.log.warn('mail claim release failed', { error: String((e as Error)?.message ?? e) }))
      }
      handled += batch.length
      if (stopped) break
    }
    return handled
  }

  const passes = serialPasses(pass, (e: any) => ctx.log.error('mail worker pass failed', { error: String(e?.stack ?? e) }), () => stopped)
  const runOnce = passes.runOnce

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(async () => {
      await runOnce()
      schedule()
    }, interval)
  }
  if (opts.autoStart !== false) schedule()

  // Every registration wakes the worker; under load one pass per burst is enough, and each pass's
  // claim is a write that would end the SQLite driver's commit group early.
  let wakeTimer: ReturnType<typeof setTimeout> | null = null
  const wake = () => {
    if (wakeTimer || stopped) return
    wakeTimer = setTimeout(() => {
      wakeTimer = null
      void runOnce()
    }, WAKE_DELAY_MS)
  }

  return {
    wake,
    runOnce,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      if (wakeTimer) clearTimeout(wakeTimer)
      await passes.idle()
      transport?.close()
      for (const t of agencyTransports.values()) t.transport.close()
    },
  }
}
