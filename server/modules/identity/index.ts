// Login, logout, account choice, user details and first-start setup.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { clientIp } from '../../http/request'
import { AppError } from '../../shared/errors'
import { requireUser, currentUser } from './auth'
import { accountSwitcherEntry, userDto } from './dto'
import { LoginBody, SetupBody } from './model'
import { listAccountsOfUser } from './repository'
import { isGuestRole } from './roles'
import { createAgencyWithAdmin, login, setupRequired } from './service'
import { clearSessionCookie, createSession, invalidateSession, sessionCookie } from './session'

/** Only same-site paths, so /logout?redirect= cannot send people elsewhere. */
export function safeRedirect(target: string | null | undefined, fallback = '/login'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return fallback
  return target
}

export function identityRoutes(ctx: AppContext) {
  const userDetails = async (c: any) => {
    const actor = await requireUser(ctx, c)
    const accounts = await listAccountsOfUser(ctx.db, actor.user.id)
    return {
      user: userDto(actor.user, actor.account, accounts),
      features: ctx.license.features,
      origin: 'SERVER',
    }
  }

  const selectAccount = async (c: any) => {
    const actor = await requireUser(ctx, c)
    const id = Number(c.params.id)
    const account = await ctx.db.selectFrom('account').selectAll().where('id', '=', id).where('user_id', '=', actor.user.id).executeTakeFirst()
    if (!account) throw new AppError(404, 'NOT_FOUND')
    if (account.status !== 'OK') throw new AppError(403, 'NO_PERMISSION')
    await ctx.db.updateTable('session').set({ account_id: account.id }).where('id', '=', actor.session.id).execute()
    const to = isGuestRole(account.user_role) ? '/guest/dashboard' : safeRedirect(c.query?.redirect, '/events')
    return c.redirect(to, 302)
  }

  return new Elysia({ name: 'identity' })
    .get('/proxy/api/setup', async () => ({ required: await setupRequired(ctx) }), { detail: { tags: ['identity'], summary: 'Whether first-start setup is still open' } })
    .post(
      '/proxy/api/setup',
      async ({ body, request, set, server }) => {
        const { user, account } = await createAgencyWithAdmin(ctx, body, { onlyIfNoUser: true })
        const { token, session } = await createSession(ctx, user.id, { accountId: account.id, userAgent: request.headers.get('user-agent'), ip: clientIp(request, server) })
        set.headers['set-cookie'] = sessionCookie(ctx, token, session.expires_at)
        return { userId: user.id, accountId: account.id, agencyId: account.agency_id }
      },
      { body: SetupBody, detail: { tags: ['identity'], summary: 'Create the first agency and administrator (only while no user exists)' } },
    )
    .post(
      '/auth/login',
      async ({ body, request, set, server }) => {
        const r = await login(ctx, body, { userAgent: request.headers.get('user-agent'), ip: clientIp(request, server) })
        set.headers['set-cookie'] = sessionCookie(ctx, r.token, r.session.expires_at)
        const current = r.accounts.find((a) => a.id === r.session.account_id) ?? null
        return {
          user: userDto(r.user, current, r.accounts),
          accounts: r.accounts.map(accountSwitcherEntry),
          requireAccountSelection: r.session.account_id == null && r.accounts.length > 0,
          tfaRequired: false,
        }
      },
      { body: LoginBody, detail: { tags: ['identity'], summary: 'Log in with e-mail and password' } },
    )
    .get(
      '/logout',
      async (c) => {
        const actor = await currentUser(ctx, c).catch(() => null)
        if (actor) await invalidateSession(ctx, actor.session.id)
        c.set.headers['set-cookie'] = clearSessionCookie(ctx)
        return c.redirect(safeRedirect(c.query.redirect as string | undefined), 302)
      },
      { detail: { tags: ['identity'], summary: 'End the session and go to ?redirect=' } },
    )
    .get(
      '/auth/accounts',
      async (c) => {
        const actor = await requireUser(ctx, c)
        const accounts = await listAccountsOfUser(ctx.db, actor.user.id)
        return accounts.map(accountSwitcherEntry)
      },
      { detail: { tags: ['identity'], summary: 'Accounts of the logged-in user (?t= cache buster)' } },
    )
    .get('/auth/select/:id', selectAccount, { detail: { tags: ['identity'], summary: 'Choose the account for this session' } })
    .get('/proxy/auth/select/:id', selectAccount, { detail: { tags: ['identity'], summary: 'Choose the account (newLogin variant)' } })
    .get('/proxy/userDetails', userDetails, { detail: { tags: ['identity'], summary: 'The user with the current account and features' } })
    .get('/userDetails', userDetails, { detail: { tags: ['identity'], summary: 'Alias of /proxy/userDetails' } })
}
