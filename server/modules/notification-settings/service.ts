// Reading, changing and resolving notification settings. Resolution: the most specific stored
// value that is not null wins (event, then account, then personal), else the code's default.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { generationCache } from '../../db/generation-cache'
import { prepared } from '../../db/prepared'
import { bool } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { AppError, notFound } from '../../shared/errors'
import type { AppUserRow, NotificationScope } from '../identity/identity.table'
import { renderMail } from '../mail/render'
import { enqueueMail } from '../mail/outbox'
import { ORGANISER_ROLES, can, isOrganiserRole } from '../identity/roles'
import { NOTIFICATION_CODES, type NotificationCode, type NotificationLevel } from './codes'

export interface Scope {
  level: NotificationLevel
  /** account or event id; 0 for USER */
  id: number
}

/** Which codes a user may set on a level. ACCOUNT and EVENT scopes must be checked by the caller. */
export async function availableCodes(db: Db, user: AppUserRow, scope: Scope, role?: string): Promise<NotificationCode[]> {
  const onLevel = NOTIFICATION_CODES.filter((c) => c.levels.includes(scope.level))
  if (scope.level === 'USER') {
    const roles = (
      await db.selectFrom('account').select('user_role').where('user_id', '=', user.id).where('status', '=', 'OK').execute()
    ).map((a) => a.user_role)
    return onLevel.filter((c) => {
      const a = c.audience
      return a.kind === 'password' ? user.password_hash != null : roles.some((r) => isOrganiserRole(r) && (!a.permission || can(r, a.permission)))
    })
  }
  return onLevel.filter((c) => {
    const a = c.audience
    return a.kind === 'organiser' && role != null && isOrganiserRole(role) && (!a.permission || can(role, a.permission))
  })
}

/** The account a user sets agency-level notifications for (own organiser accounts only). */
export async function ownAccount(db: Db, userId: number, accountId: number) {
  const a = await db.selectFrom('account').selectAll().where('id', '=', accountId).where('user_id', '=', userId).executeTakeFirst()
  if (!a || !isOrganiserRole(a.user_role)) throw notFound()
  return a
}

export async function readSettings(db: Db, user: AppUserRow, scope: Scope, role?: string) {
  const codes = await availableCodes(db, user, scope, role)
  const rows = await db
    .selectFrom('notification_setting')
    .select(['code', 'enabled'])
    .where('user_id', '=', user.id)
    .where('scope', '=', scope.level)
    .where('scope_id', '=', scope.id)
    .execute()
  const stored = new Map(rows.map((r) => [r.code, r.enabled == null ? null : bool(r.enabled)]))
  return codes.map((c) => ({ code: c.code, enabled: stored.has(c.code) ? stored.get(c.code)! : scope.level === 'USER' ? c.default : null }))
}

export async function updateSettings(ctx: AppContext, user: AppUserRow, scope: Scope, list: Array<{ code: string; enabled: boolean | null }>, role?: string) {
  const codes = new Set((await availableCodes(ctx.db, user, scope, role)).map((c) => c.code))
  const fields = list.flatMap((n, i) =>
    !codes.has(n.code)
      ? [{ field: `notifications.${i}.code`, errorType: 'INVALID' }]
      : n.enabled === null && scope.level === 'USER'
        ? [{ field: `notifications.${i}.enabled`, errorType: 'REQUIRED' }]
        : [],
  )
  if (fields.length) throw new AppError(400, 'FIELD_ERROR', { fields })
  await ctx.db.transaction().execute(async (trx) => {
    for (const n of list) {
      await trx
        .deleteFrom('notification_setting')
        .where('user_id', '=', user.id)
        .where('scope', '=', scope.level as NotificationScope)
        .where('scope_id', '=', scope.id)
        .where('code', '=', n.code)
        .execute()
      if (n.enabled !== null) {
        await trx.insertInto('notification_setting').values({ user_id: user.id, scope: scope.level, scope_id: scope.id, code: n.code, enabled: n.enabled }).execute()
      }
    }
  })
  return readSettings(ctx.db, user, scope, role)
}

const SPECIFICITY: Record<NotificationLevel, number> = { EVENT: 3, ACCOUNT: 2, USER: 1 }

/** The value that applies to one user for one code in the given context. */
export async function effectiveSetting(db: Db, userId: number, code: string, at: { accountId?: number; eventId?: number }): Promise<boolean> {
  const def = NOTIFICATION_CODES.find((c) => c.code === code)
  if (!def) throw new Error(`unknown notification code ${code}`)
  const rows = await db
    .selectFrom('notification_setting')
    .select(['scope', 'enabled'])
    .where('user_id', '=', userId)
    .where('code', '=', code)
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'USER'), eb('scope_id', '=', 0)]),
        eb.and([eb('scope', '=', 'ACCOUNT'), eb('scope_id', '=', at.accountId ?? -1)]),
        eb.and([eb('scope', '=', 'EVENT'), eb('scope_id', '=', at.eventId ?? -1)]),
      ]),
    )
    .execute()
  return pick(rows, def.default)
}

function pick(rows: Array<{ scope: string; enabled: number | null }>, fallback: boolean): boolean {
  let best: { rank: number; value: boolean } | null = null
  for (const r of rows) {
    if (r.enabled == null) continue
    const rank = SPECIFICITY[r.scope as NotificationLevel]
    if (!best || rank > best.rank) best = { rank, value: bool(r.enabled) }
  }
  return best ? best.value : fallback
}

/**
 * The organiser accounts of an agency that want a notification (code) for an event, with their
 * user's address and language. For use inside the transaction that caused the event; cached while
 * the recipients counter stands still (see recipientsOf).
 */
// Runs inside every registration's transaction (NEW_REGISTRATION): compiled once per code
// (db/prepared.ts); the roles allowed for a code are constants of its statement.
const recipientQueries = new Map<string, ReturnType<typeof recipientQuery>>()
function recipientQuery(code: string, roles: readonly string[]) {
  return prepared((db, p: { agencyId: number; eventId: number }) =>
    db
      .selectFrom('account as a')
      .innerJoin('app_user as u', 'u.id', 'a.user_id')
      .leftJoin('notification_setting as n', (j) =>
        j
          .onRef('n.user_id', '=', 'a.user_id')
          .on('n.code', '=', code)
          .on((eb) =>
            eb.or([
              eb.and([eb('n.scope', '=', 'USER'), eb('n.scope_id', '=', 0)]),
              eb.and([eb('n.scope', '=', 'ACCOUNT'), eb('n.scope_id', '=', eb.ref('a.id'))]),
              eb.and([eb('n.scope', '=', 'EVENT'), eb('n.scope_id', '=', p.eventId)]),
            ]),
          ),
      )
      .select(['a.id as account_id', 'u.id as user_id', 'u.email', 'u.language', 'n.scope', 'n.enabled'])
      .where('a.agency_id', '=', p.agencyId)
      .where('a.status', '=', 'OK')
      .where('u.status', '=', 'OK')
      .where('a.user_role', 'in', [...roles]),
  )
}

type Recipient = { accountId: number; id: number; email: string; language: string }

// Recipients per database, agency, event and code, valid while the database's recipients counter
// (raised by triggers, migration 701) stands still: one primary-key read instead of the join in
// every registration's transaction (db/generation-cache.ts).
const recipientCache = generationCache<Recipient[]>('recipients')

export async function recipientsOf(db: Db, agencyId: number, code: string, eventId?: number): Promise<Recipient[]> {
  return recipientCache.get(db, `${agencyId}:${eventId ?? -1}:${code}`, () => findRecipients(db, agencyId, code, eventId))
}

async function findRecipients(db: Db, agencyId: number, code: string, eventId?: number): Promise<Recipient[]> {
  const def = NOTIFICATION_CODES.find((c) => c.code === code)!
  const permission = def.audience.kind === 'organiser' ? def.audience.permission : undefined
  const roles = ORGANISER_ROLES.filter((r) => !permission || can(r, permission))
  let query = recipientQueries.get(code)
  if (!query) recipientQueries.set(code, (query = recipientQuery(code, roles)))
  const rows = (await query(db, { agencyId, eventId: eventId ?? -1 })).rows
  const byAccount = new Map<number, { userId: number; email: string; language: string; settings: Array<{ scope: string; enabled: number | null }> }>()
  for (const r of rows) {
    const e = byAccount.get(r.account_id) ?? { userId: r.user_id, email: r.email, language: r.language, settings: [] }
    if (r.scope) e.settings.push({ scope: r.scope, enabled: r.enabled })
    byAccount.set(r.account_id, e)
  }
  return [...byAccount.entries()].filter(([, e]) => pick(e.settings, def.default)).map(([accountId, e]) => ({ accountId, id: e.userId, email: e.email, language: e.language }))
}

/** Mails the organisers who asked for NEW_REGISTRATION. Call inside the registration's transaction. */
export async function notifyNewRegistration(
  ctx: AppContext,
  trx: Db,
  p: { agencyId: number; eventId: number; eventName: string; guestName: string; guestEmail: string; persons: number; status: string },
) {
  const to = await recipientsOf(trx, p.agencyId, 'NEW_REGISTRATION', p.eventId)
  for (const r of to) {
    const lang = r.language
    const mail = renderMail({
      subject: t(lang, 'notifications.mail.newRegistration.subject', { event: p.eventName }),
      greeting: t(lang, 'identity.mail.greeting'),
      paragraphs: [
        t(lang, 'notifications.mail.newRegistration.body', { event: p.eventName, name: p.guestName, email: p.guestEmail, persons: p.persons, status: t(lang, `visitorStatus.${p.status}`) }),
        t(lang, 'notifications.mail.settingsHint'),
      ],
      button: { label: t(lang, 'notifications.mail.newRegistration.button'), url: `${ctx.config.baseUrl}/events/${p.eventId}` },
      footer: t(lang, 'identity.mail.footer'),
    })
    await enqueueMail(trx, { kind: 'NEW_REGISTRATION', to: r.email, ...mail, language: lang, userId: r.id, agencyId: p.agencyId, eventId: p.eventId })
  }
  return to.length
}
