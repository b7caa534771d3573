// The audit log (issue 22): who did what and when, with the fields a change touched (before and
// after). Written in the transaction of the change it records, so a change and its record commit
// or roll back together; append-only in the database (migration 2026-11-28-900). The request's id and
// client address come from the request context (http/request-context.ts), the actor from the caller.
import { stringify } from 'csv-stringify/sync'
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { currentRequest } from '../../http/request-context'
import { formatDateTime } from '../../i18n/format'
import { registerPeriodicJob } from '../tasks/runner'
import type { AuditLogRow } from './audit.table'

/** Every action the log knows, with its German label (the organiser's filter and the CSV). */
export const AUDIT_ACTIONS = {
  'auth.login': 'Anmeldung',
  'auth.login.failed': 'Anmeldung fehlgeschlagen',
  'auth.tfa.failed': 'Zwei-Faktor-Code falsch',
  'auth.sso.login': 'Anmeldung über Firmen-Login',
  'auth.sso.refused': 'Firmen-Login abgewiesen',
  'event.create': 'Veranstaltung angelegt',
  'event.update': 'Veranstaltung geändert',
  'event.copy': 'Veranstaltung kopiert',
  'event.archive': 'Veranstaltung archiviert',
  'event.unarchive': 'Veranstaltung aus dem Archiv geholt',
  'event.delete': 'Veranstaltung gelöscht',
  'event.restore': 'Veranstaltung wiederhergestellt',
  'user.invite': 'Benutzer eingeladen',
  'user.role': 'Rolle geändert',
  'user.remove': 'Benutzer entfernt',
  'guests.export': 'Gästeliste exportiert',
  'guests.import': 'Gäste importiert',
  'invitations.send': 'Einladungen versandt',
  'audit.export': 'Protokoll exportiert',
  'guest.status': 'Gaststatus geändert',
  'order.markPaid': 'Als bezahlt markiert',
  'order.undoPaid': 'Zahlung zurückgenommen',
  'order.extendDeadline': 'Zahlungsfrist verlängert',
  'order.cancellationDeclined': 'Stornierungsanfrage abgelehnt',
  'order.cancel': 'Bestellung storniert',
  'order.invoiceAddress': 'Rechnungsadresse geändert',
  'order.refund': 'Bestellung erstattet',
  'order.refund.online': 'Über Zahlungsdienst erstattet',
  'order.refund.partial': 'Teilerstattung erfasst',
  'order.refund.lines': 'Tickets einzeln erstattet',
  'checkin.correct': 'Am Einlass ausgecheckt',
  'form.change': 'Formular geändert',
  'settings.change': 'Einstellungen geändert',
  'license.request': 'Bestellanfrage an den Support',
} as const
export type AuditAction = keyof typeof AUDIT_ACTIONS

export interface AuditActor {
  user: { id: number; email: string }
}

export interface AuditEntry {
  agencyId: number | null
  /** null for what nobody signed in did (a failed login names the e-mail it tried in actorEmail) */
  actor: AuditActor | null
  actorEmail?: string | null
  action: AuditAction
  entityType?: string | null
  entityId?: string | number | null
  eventId?: number | null
  changes?: Record<string, [unknown, unknown]> | null
  detail?: Record<string, unknown> | null
}

/** fields never written into the log, whatever a caller hands in */
const SECRET = /password|secret|token|hash|key|iban|tfa/i

/** long texts (descriptions, mail bodies) are kept to their start: the log says that, not what */
const shortened = (v: unknown) => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…` : v)

/** The fields whose value differs, as {field: [before, after]}; null when nothing changed. */
export function changesOf(before: Record<string, unknown>, after: Record<string, unknown>, fields?: readonly string[]): Record<string, [unknown, unknown]> | null {
  const out: Record<string, [unknown, unknown]> = {}
  for (const f of fields ?? Object.keys({ ...before, ...after })) {
    if (SECRET.test(f)) continue
    const a = shortened(before[f] ?? null)
    const b = shortened(after[f] ?? null)
    if (JSON.stringify(a) !== JSON.stringify(b)) out[f] = [a, b]
  }
  return Object.keys(out).length ? out : null
}

/** Records one entry; pass the transaction of the change so both commit together. */
export async function audit(ctx: AppContext, db: Db, e: AuditEntry): Promise<void> {
  const rc = currentRequest()
  await db
    .insertInto('audit_log')
    .values({
      agency_id: e.agencyId,
      created_at: isoNow(ctx.clock.now()),
      actor_user_id: e.actor?.user.id ?? null,
      actor_email: (e.actor?.user.email ?? e.actorEmail ?? null)?.slice(0, 254) ?? null,
      actor_ip: rc?.clientIp() ?? null,
      request_id: rc?.reqId ?? null,
      action: e.action,
      entity_type: e.entityType ?? null,
      entity_id: e.entityId == null ? null : String(e.entityId),
      event_id: e.eventId ?? null,
      changes: e.changes ? toJson(e.changes) : null,
      detail: e.detail ? toJson(e.detail) : null,
    })
    .execute()
}

/** A setting saved by an organiser: what changed in it (before/after), nothing when nothing did. */
export async function auditSettings(ctx: AppContext, actor: AuditActor & { account: { agency_id: number } }, what: string, before: object | null, after: object | null, eventId: number | null = null) {
  const changes = changesOf((before ?? {}) as Record<string, unknown>, (after ?? {}) as Record<string, unknown>)
  if (!changes && before && after) return
  await audit(ctx, ctx.db, { agencyId: actor.account.agency_id, actor, action: 'settings.change', entityType: what, eventId, changes, detail: { settings: what, ...(before ? {} : { created: true }), ...(after ? {} : { deleted: true }) } })
}

export interface AuditQuery {
  actor?: string
  action?: string
  eventId?: number
  from?: string
  to?: string
  page: number
  size: number
}

function filtered(ctx: AppContext, agencyId: number, q: Omit<AuditQuery, 'page' | 'size'>) {
  let s = ctx.db.selectFrom('audit_log').where('audit_log.agency_id', '=', agencyId)
  if (q.actor) s = s.where(sql`lower(audit_log.actor_email)`, 'like', `%${q.actor.toLowerCase().replace(/[%_\\]/g, '')}%`)
  if (q.action) s = s.where('audit_log.action', '=', q.action)
  if (q.eventId) s = s.where('audit_log.event_id', '=', q.eventId)
  if (q.from) s = s.where('audit_log.created_at', '>=', q.from)
  if (q.to) s = s.where('audit_log.created_at', '<', q.to)
  return s
}

/** the entries with their event's name, for the page and the CSV */
const withEventName = (q: ReturnType<typeof filtered>) => q.leftJoin('event', 'event.id', 'audit_log.event_id').selectAll('audit_log').select('event.display_name as event_name')

export interface AuditItem {
  id: number
  createdAt: string
  actorEmail: string | null
  actorIp: string | null
  requestId: string | null
  action: string
  actionLabel: string
  entityType: string | null
  entityId: string | null
  eventId: number | null
  eventName: string | null
  changes: Record<string, [unknown, unknown]> | null
  detail: Record<string, unknown> | null
}

const toItem = (r: AuditLogRow & { event_name: string | null }): AuditItem => ({
  id: r.id,
  createdAt: new Date(r.created_at).toISOString(),
  actorEmail: r.actor_email,
  actorIp: r.actor_ip,
  requestId: r.request_id,
  action: r.action,
  actionLabel: AUDIT_ACTIONS[r.action as AuditAction] ?? r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  eventId: r.event_id,
  eventName: r.event_name,
  changes: fromJson(r.changes, null),
  detail: fromJson(r.detail, null),
})

export async function searchAudit(ctx: AppContext, agencyId: number, q: AuditQuery): Promise<{ items: AuditItem[]; total: number }> {
  const total = await filtered(ctx, agencyId, q).select(sql<number>`count(*)`.as('n')).executeTakeFirst()
  const rows = await withEventName(filtered(ctx, agencyId, q))
    .orderBy('audit_log.created_at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(q.size)
    .offset(q.page * q.size)
    .execute()
  return { items: rows.map(toItem), total: Number(total?.n ?? 0) }
}

/** The whole filtered log as CSV (semicolons and a BOM, as German spreadsheet programs read it). */
export async function exportAuditCsv(ctx: AppContext, agencyId: number, q: Omit<AuditQuery, 'page' | 'size'>, timezone: string): Promise<string> {
  const rows = await withEventName(filtered(ctx, agencyId, q))
    .orderBy('audit_log.created_at', 'asc')
    .orderBy('audit_log.id', 'asc')
    .limit(100_000)
    .execute()
  const items = rows.map(toItem)
  const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))
  const lines = items.map((i) => [
    formatDateTime(i.createdAt, timezone),
    i.actorEmail ?? '',
    i.actorIp ?? '',
    i.actionLabel,
    i.action,
    i.eventName ?? '',
    i.entityType ?? '',
    i.entityId ?? '',
    i.changes ? Object.entries(i.changes).map(([f, [a, b]]) => `${f}: ${text(a)} → ${text(b)}`).join('; ') : '',
    i.detail ? JSON.stringify(i.detail) : '',
    i.requestId ?? '',
  ])
  return '\ufeff' + stringify([['Zeit', 'Wer', 'Adresse', 'Was', 'Aktion', 'Veranstaltung', 'Objekt', 'Objekt-ID', 'Änderungen', 'Details', 'Anfrage-ID'], ...lines], { delimiter: ';' })
}

/** Deletes the entries older than the retention (the database refuses younger ones anyway). */
export async function sweepAudit(ctx: AppContext): Promise<number> {
  const days = Math.max(30, ctx.config.audit.retention_days)
  const cutoff = isoNow(new Date(ctx.clock.now().getTime() - days * 86400_000))
  const r = await ctx.db.deleteFrom('audit_log').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(r.numDeletedRows ?? 0)
}

registerPeriodicJob('audit-retention', 6 * 3600_000, async (ctx) => {
  const n = await sweepAudit(ctx)
  if (n) ctx.log.info('audit log entries past their retention deleted', { deleted: n, retentionDays: ctx.config.audit.retention_days })
})
