// Notification settings: personal (/user), per agency account (/account/{id}) and per event
// (/event/{id}), each with an /available variant; PATCH ?user=true | ?accountId= | ?eventId=.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { requireOrganiser, requireSelf } from '../identity/auth'
import type { AppUserRow } from '../identity/identity.table'
import { NotificationsPatchBody, NotificationsPatchQuery } from './model'
import { availableCodes, ownAccount, readSettings, type Scope, updateSettings } from './service'

const IdParams = z.object({ id: idParam() })
const doc = (summary: string) => ({ detail: { tags: ['notifications'], summary } })

export function notificationSettingsRoutes(ctx: AppContext) {
  /** The scope a request addresses, with the role that decides which codes apply. */
  async function scopeFor(c: any, level: 'USER' | 'ACCOUNT' | 'EVENT', id: number): Promise<{ user: AppUserRow; scope: Scope; role?: string }> {
    if (level === 'EVENT') {
      const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
      const event = await ctx.db.selectFrom('event').select(['id', 'agency_id']).where('id', '=', id).executeTakeFirst()
      if (!event || event.agency_id !== actor.account.agency_id) throw notFound()
      return { user: actor.user, scope: { level, id }, role: actor.account.user_role }
    }
    const actor = await requireSelf(ctx, c)
    if (level === 'ACCOUNT') {
      const account = await ownAccount(ctx.db, actor.user.id, id)
      return { user: actor.user, scope: { level, id }, role: account.user_role }
    }
    return { user: actor.user, scope: { level: 'USER', id: 0 } }
  }
  const read = (level: 'USER' | 'ACCOUNT' | 'EVENT') => async (c: any) => {
    const s = await scopeFor(c, level, level === 'USER' ? 0 : c.params.id)
    return readSettings(ctx.db, s.user, s.scope, s.role)
  }
  const available = (level: 'USER' | 'ACCOUNT' | 'EVENT') => async (c: any) => {
    const s = await scopeFor(c, level, level === 'USER' ? 0 : c.params.id)
    return (await availableCodes(ctx.db, s.user, s.scope, s.role)).map((n) => ({ code: n.code, default: n.default, levels: n.levels }))
  }
  return new Elysia({ name: 'notification-settings' })
    .get('/proxy/api/notifications/user', read('USER'), doc('Personal notification settings (code, enabled)'))
    .get('/proxy/api/user/notifications', read('USER'), doc('Personal notification settings (same as /api/notifications/user)'))
    .get('/proxy/api/notifications/user/available', available('USER'), doc('Notification codes available personally'))
    .get('/proxy/api/notifications/account/:id', read('ACCOUNT'), { params: IdParams, ...doc('Notification settings of one own agency account (null = inherit)') })
    .get('/proxy/api/notifications/account/:id/available', available('ACCOUNT'), { params: IdParams, ...doc('Notification codes available for an agency account') })
    .get('/proxy/api/notifications/event/:id', read('EVENT'), { params: IdParams, ...doc('Notification settings of the user for one event (null = inherit)') })
    .get('/proxy/api/notifications/event/:id/available', available('EVENT'), { params: IdParams, ...doc('Notification codes available for an event') })
    .patch(
      '/proxy/api/notifications',
      async (c) => {
        const q = c.query
        const chosen = [q.user === 'true', q.accountId != null, q.eventId != null].filter(Boolean).length
        if (chosen !== 1) throw new AppError(400, 'INVALID_PARAMETERS')
        const s = q.user === 'true' ? await scopeFor(c, 'USER', 0) : q.accountId != null ? await scopeFor(c, 'ACCOUNT', q.accountId) : await scopeFor(c, 'EVENT', q.eventId!)
        return updateSettings(ctx, s.user, s.scope, c.body.notifications, s.role)
      },
      { query: NotificationsPatchQuery, body: NotificationsPatchBody, ...doc('Change notification settings (?user=true, ?accountId= or ?eventId=; body: notifications)') },
    )
}
