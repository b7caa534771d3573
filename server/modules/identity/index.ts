// Identity routes: login (with the two-factor step), logout, account choice, user details,
// first-start setup, the account area (/api/user...), two-factor methods (/api/user-tfa...),
// deletion and introduction keys.
import { Elysia } from 'elysia'
import { z } from 'zod'
import { safeRedirect as sharedSafeRedirect } from '../../shared/redirect'
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { currentSession, requireSelf, requireUser } from './auth'
import { confirmDeletion, deletionOverview, markAccountsForDeletion, revokeAccountDeletion, revokeUserDeletion } from './deletion'
import { accountSwitcherEntry, userDto } from './dto'
import type { AccountWithAgency } from './repository'
import { ssoRoutes } from './sso'
import { requirementOf, ssoAgencies } from './sso/policy'
import {
  AccountPasswordBody,
  AccountProfileBody,
  DeleteAccountsBody,
  ForgotPasswordBody,
  LoginBody,
  LoginTfaBody,
  LoginTfaSendBody,
  ReasonBody,
  ResetPasswordBody,
  ResetTokenQuery,
  SetupBody,
  TfaAddBody,
  TfaLinkBody,
  TokenBody,
  UserPatchBody,
} from './model'
import { requestPasswordReset, resetLinkInfo, resetPassword } from './password-reset'
import { listAccountsOfUser } from './repository'
import { isGuestRole } from './roles'
import { createAgencyWithAdmin, login, loginSecondStep, pendingLogin, setupRequired } from './service'
import { SESSION_COOKIE, clearKnownGuestCookie, clearSessionCookie, createSession, invalidateSession, readCookie, sessionCookie } from './session'
import { addMethod, enabledMethods, linkDataFor, linkMethod, listMethods, recoveryCodeState, regenerateRecoveryCodes, removeMethod, sendLoginEmailCode, setEnabled, tfaDto } from './tfa'
import {
  accountsWithImages,
  currentUserDto,
  hiddenIntroductions,
  hideIntroductions,
  patchAccount,
  patchUser,
  showIntroductions,
  uploadAccountImage,
} from './user-service'

/** Only same-site paths, so /logout?redirect= cannot send people elsewhere (server/shared/redirect.ts). */
export const safeRedirect = (target: string | null | undefined, fallback = '/login') => sharedSafeRedirect(target, fallback)

const IdParams = z.object({ id: idParam() })
const meta = (ctx: AppContext, request: Request, server: any) => ({ userAgent: request.headers.get('user-agent'), ip: clientIp(request, server, ctx.config.server.trusted_proxies) })
const tag = (summary: string, tags = ['identity']) => ({ detail: { tags, summary } })

function authRoutes(ctx: AppContext) {
  const userDetails = async (c: any) => {
    const actor = await requireUser(ctx, c)
    const [accounts, methods] = await Promise.all([listAccountsOfUser(ctx.db, actor.user.id), enabledMethods(ctx.db, actor.user.id)])
    return { user: userDto(actor.user, actor.account, accounts, methods.length > 0), features: ctx.license.features, origin: 'SERVER' }
  }

  /** The switcher entries with their company-login requirements for a session (null: a login still to open). */
  const switcherEntries = async (accounts: AccountWithAgency[], sessionSsoAgency: number | null) => {
    const sso = await ssoAgencies(ctx.db, accounts.map((a) => a.agency_id))
    return accounts.map((a) => accountSwitcherEntry(a, requirementOf(a, sso, sessionSsoAgency)))
  }

  const selectAccount = async (c: any) => {
    const actor = await requireUser(ctx, c)
    const id = Number(c.params.id)
    const account = await ctx.db.selectFrom('account').selectAll().where('id', '=', id).where('user_id', '=', actor.user.id).executeTakeFirst()
    if (!account) throw new AppError(404, 'NOT_FOUND')
    if (account.status !== 'OK') throw new AppError(403, 'NO_PERMISSION')
    // spec 2.5: choosing may need a logout or the company login; the /proxy variant (newLogin) leads there
    const need = requirementOf(account, await ssoAgencies(ctx.db, [account.agency_id]), actor.session.sso_agency_id)
    const viaProxy = new URL(c.request.url).pathname.startsWith('/proxy/')
    if (need.requireSsoLogin) {
      if (!viaProxy) throw new AppError(403, 'SSO_LOGIN_REQUIRED')
      const redirect = c.query?.redirect ? `&redirect=${encodeURIComponent(safeRedirect(c.query.redirect, '/'))}` : ''
      return c.redirect(`/proxy/auth/sso/start?agency=${account.agency_id}&account=${account.id}${redirect}`, 302)
    }
    if (need.requireLogout) {
      if (!viaProxy) throw new AppError(403, 'SSO_LOGOUT_REQUIRED')
      return c.redirect(`/logout?redirect=${encodeURIComponent('/login')}`, 302)
    }
    await ctx.db.updateTable('session').set({ account_id: account.id }).where('id', '=', actor.session.id).execute()
    const to = isGuestRole(account.user_role) ? '/guest/dashboard' : safeRedirect(c.query?.redirect, `/events?account=${account.id}`)
    return c.redirect(to, 302)
  }

  const loginAnswer = async (r: Awaited<ReturnType<typeof login>>) => {
    if (r.kind === 'tfa') return { user: null, accounts: [], requireAccountSelection: false, tfaRequired: true, tfaMethods: r.methods }
    const current = r.accounts.find((a) => a.id === r.session.account_id) ?? null
    return {
      user: userDto(r.user, current, r.accounts),
      accounts: await switcherEntries(r.accounts, r.session.sso_agency_id),
      requireAccountSelection: r.session.account_id == null && r.accounts.some((a) => a.status === 'OK'),
      tfaRequired: false,
      tfaMethods: [],
    }
  }

  return new Elysia({ name: 'identity-auth' })
    .get('/proxy/api/setup', async () => ({ required: await setupRequired(ctx) }), tag('Whether first-start setup is still open'))
    .post(
      '/proxy/api/setup',
      async ({ body, request, set, server }) => {
        const { user, account } = await createAgencyWithAdmin(ctx, body, { onlyIfNoUser: true })
        const { token, session } = await createSession(ctx, user.id, { accountId: account.id, ...meta(ctx, request, server) })
        set.headers['set-cookie'] = sessionCookie(ctx, token, session.expires_at)
        return { userId: user.id, accountId: account.id, agencyId: account.agency_id }
      },
      { body: SetupBody, ...tag('Create the first agency and administrator (only while no user exists)') },
    )
    .post(
      '/auth/login',
      async ({ body, request, set, server }) => {
        const r = await login(ctx, body, meta(ctx, request, server))
        set.headers['set-cookie'] = sessionCookie(ctx, r.token, r.session.expires_at)
        return loginAnswer(r)
      },
      { body: LoginBody, ...tag('Log in with e-mail and password; answers tfaRequired when a second step follows') },
    )
    .post(
      '/auth/login/tfa',
      async ({ body, request, set, server }) => {
        const r = await loginSecondStep(ctx, readCookie(request, SESSION_COOKIE), body.token, body.methodId, meta(ctx, request, server))
        set.headers['set-cookie'] = sessionCookie(ctx, r.token, r.session.expires_at)
        return loginAnswer(r)
      },
      { body: LoginTfaBody, ...tag('Second login step: the two-factor code') },
    )
    .post(
      '/auth/login/tfa/send',
      async ({ body, request }) => {
        const pending = await pendingLogin(ctx, readCookie(request, SESSION_COOKIE))
        if (!pending) throw new AppError(401, 'NOT_AUTHENTICATED')
        await sendLoginEmailCode(ctx, pending.user, body.methodId)
        return { sent: true }
      },
      { body: LoginTfaSendBody, ...tag('Mail the login code of an EMAIL two-factor method') },
    )
    .get(
      '/logout',
      async (c) => {
        const token = readCookie(c.request, SESSION_COOKIE)
        // any session, also a guest-link one that reaches guest things only
        const actor = await currentSession(ctx, c).catch(() => null)
        if (actor) await invalidateSession(ctx, actor.session.id)
        else if (token) {
          const pending = await pendingLogin(ctx, token)
          if (pending) await invalidateSession(ctx, pending.session.id)
        }
        // with the guest marker beside the session (guest/link-session.ts): the public form stops asking
        ;(c.set.headers as Record<string, string | string[]>)['set-cookie'] = [clearSessionCookie(ctx), clearKnownGuestCookie(ctx)]
        return c.redirect(safeRedirect(c.query.redirect as string | undefined), 302)
      },
      tag('End the session and go to ?redirect='),
    )
    .get(
      '/auth/accounts',
      async (c) => {
        const actor = await requireUser(ctx, c)
        const accounts = await listAccountsOfUser(ctx.db, actor.user.id)
        return switcherEntries(accounts, actor.session.sso_agency_id)
      },
      tag('Accounts of the logged-in user (?t= cache buster)'),
    )
    .get('/auth/select/:id', selectAccount, { params: IdParams, ...tag('Choose the account for this session') })
    .get('/proxy/auth/select/:id', selectAccount, { params: IdParams, ...tag('Choose the account (newLogin variant)') })
    .get('/proxy/userDetails', userDetails, tag('The user with the current account and features (?account=, ?refresh, ?t=)'))
    .get('/userDetails', userDetails, tag('Alias of /proxy/userDetails'))
}

function userRoutes(ctx: AppContext) {
  return new Elysia({ name: 'identity-user' })
    .get('/proxy/api/user/current', async (c) => currentUserDto(ctx, await requireSelf(ctx, c)), tag('The current user (its language sets the UI language)'))
    .get('/proxy/api/user/accounts', async (c) => accountsWithImages(ctx, (await requireSelf(ctx, c)).user.id), tag('The accounts of the current user with profile data'))
    .patch(
      '/proxy/api/user/accounts/:id',
      async (c) => patchAccount(ctx, await requireSelf(ctx, c), c.params.id, c.body),
      { params: IdParams, body: AccountProfileBody, ...tag('Update the profile of one own account') },
    )
    .post(
      '/proxy/api/user/accounts/:id/image',
      async (c) => uploadAccountImage(ctx, await requireSelf(ctx, c), c.params.id, c.body.file),
      { params: IdParams, body: z.object({ file: z.instanceof(File, { message: 'REQUIRED' }) }), ...tag('Upload the profile picture of an own account (multipart: file; type USER, images only)') },
    )
    .patch(
      '/proxy/api/user/:id',
      async (c) => patchUser(ctx, await requireSelf(ctx, c), c.params.id, c.body),
      { params: IdParams, body: UserPatchBody, ...tag('Update language, design or password (password, passwordRepeat, currentPassword, removeTokens)') },
    )
    .get('/proxy/api/user/deletion', async (c) => deletionOverview(ctx, (await requireSelf(ctx, c)).user.id), tag('Accounts with their deletion state (for the deletion dialog)'))
    .post(
      '/proxy/api/user/deleteAccounts',
      async (c) => {
        const actor = await requireSelf(ctx, c)
        return markAccountsForDeletion(ctx, actor.user, c.body.accounts, c.body.reason)
      },
      { body: DeleteAccountsBody, ...tag('Mark exactly these accounts for deletion (others only marked are revoked); mails a confirmation link') },
    )
    .delete(
      '/proxy/api/user/accounts/:id',
      async (c) => {
        const actor = await requireSelf(ctx, c)
        const marked = (await deletionOverview(ctx, actor.user.id)).filter((a) => a.deletionInProgress && !a.requireDeletion).map((a) => a.id)
        return markAccountsForDeletion(ctx, actor.user, [...new Set([...marked, c.params.id])], c.body?.reason)
      },
      { params: IdParams, body: ReasonBody.optional(), ...tag('Mark one account for deletion (body: reason); mails a confirmation link') },
    )
    .delete(
      '/proxy/api/user/:id',
      async (c) => {
        const actor = await requireSelf(ctx, c)
        if (c.params.id !== actor.user.id) throw notFound()
        const all = (await listAccountsOfUser(ctx.db, actor.user.id)).map((a) => a.id)
        return markAccountsForDeletion(ctx, actor.user, all, c.body?.reason, { wholeUser: true })
      },
      { params: IdParams, body: ReasonBody.optional(), ...tag('Mark the whole user with all accounts for deletion (body: reason); mails a confirmation link') },
    )
    .get(
      '/proxy/api/user/accounts/:id/revokeDeletion',
      async (c) => revokeAccountDeletion(ctx, (await requireSelf(ctx, c)).user, c.params.id),
      { params: IdParams, ...tag('Revoke the marked or scheduled deletion of an account') },
    )
    .get('/proxy/api/user/revokeDeletion', async (c) => revokeUserDeletion(ctx, (await requireSelf(ctx, c)).user), tag('Revoke the deletion of the whole user'))
    .post('/proxy/api/public/user/confirmDeletion', async ({ body }) => confirmDeletion(ctx, body.token), { body: TokenBody, ...tag('Confirm a deletion with the mailed link') })
    .get('/proxy/api/introduction', async (c) => hiddenIntroductions(ctx, (await requireSelf(ctx, c)).user.id), tag('Introduction keys the user has hidden'))
    .post(
      '/proxy/api/introduction',
      async (c) => hideIntroductions(ctx, (await requireSelf(ctx, c)).user.id, c.body),
      { body: z.array(z.string().min(1).max(100)).max(200), ...tag('Hide introduction boxes (array of keys)') },
    )
    .delete(
      '/proxy/api/introduction',
      async (c) => showIntroductions(ctx, (await requireSelf(ctx, c)).user.id, c.body ?? null),
      { body: z.array(z.string().min(1).max(100)).max(200).nullish(), ...tag('Show introduction boxes again (array of keys; no body: all)') },
    )
}

function tfaRoutes(ctx: AppContext) {
  const tfa = (summary: string) => tag(summary, ['two-factor'])
  return new Elysia({ name: 'identity-tfa' })
    .get('/proxy/api/user-tfa/list', async (c) => (await listMethods(ctx.db, (await requireUser(ctx, c)).user.id)).map(tfaDto), tfa('Two-factor methods of the user'))
    .get('/proxy/api/user-tfa/recovery-codes', async (c) => recoveryCodeState(ctx.db, (await requireUser(ctx, c)).user.id), tfa('How many one-time recovery codes are left (total, remaining)'))
    .post('/proxy/api/user-tfa/recovery-codes', async (c) => regenerateRecoveryCodes(ctx, (await requireUser(ctx, c)).user, c.body.accountPassword), {
      body: AccountPasswordBody,
      ...tfa('New one-time recovery codes (accountPassword); the old ones stop working; answers them once'),
    })
    .get('/proxy/api/user-tfa/:id/forLink', async (c) => linkDataFor(ctx, (await requireUser(ctx, c)).user, c.params.id), { params: IdParams, ...tfa('Link data (QR code, secret) of a method not yet linked') })
    .post('/proxy/api/user-tfa', async (c) => addMethod(ctx, (await requireUser(ctx, c)).user, c.body), { body: TfaAddBody, ...tfa('Add a method (twoFactorType, displayName, accountPassword)') })
    .post(
      '/proxy/api/user-tfa/:id/link',
      async (c) => linkMethod(ctx, (await requireUser(ctx, c)).user, c.params.id, c.body.token, clientIp(c.request, c.server, ctx.config.server.trusted_proxies)),
      { params: IdParams, body: TfaLinkBody, ...tfa('Link a method with one code (token)') },
    )
    .delete(
      '/proxy/api/user-tfa/:id',
      async (c) => {
        await removeMethod(ctx, (await requireUser(ctx, c)).user, c.params.id, c.body.accountPassword)
        return { deleted: true }
      },
      { params: IdParams, body: AccountPasswordBody, ...tfa('Delete a method (accountPassword)') },
    )
    .post('/proxy/api/user-tfa/:id/enable', async (c) => setEnabled(ctx, (await requireUser(ctx, c)).user, c.params.id, true, c.body.accountPassword), {
      params: IdParams,
      body: AccountPasswordBody,
      ...tfa('Enable a linked method (accountPassword)'),
    })
    .post('/proxy/api/user-tfa/:id/disable', async (c) => setEnabled(ctx, (await requireUser(ctx, c)).user, c.params.id, false, c.body.accountPassword), {
      params: IdParams,
      body: AccountPasswordBody,
      ...tfa('Disable a method (accountPassword)'),
    })
}

function passwordResetRoutes(ctx: AppContext) {
  return new Elysia({ name: 'identity-password-reset' })
    .post(
      '/proxy/api/public/password/forgot',
      async (c) => requestPasswordReset(ctx, c.body.email, clientIp(c.request, c.server, ctx.config.server.trusted_proxies)),
      { body: ForgotPasswordBody, ...tag('Forgotten password: mail a reset link (guests without a password: the access link); the same answer whether or not the address is known') },
    )
    .get('/proxy/api/public/password/reset', async (c) => resetLinkInfo(ctx, c.query.token), {
      query: ResetTokenQuery,
      ...tag('Check a reset link (token): the e-mail it is for, or 410 LINK_EXPIRED'),
    })
    .post('/proxy/api/public/password/reset', async (c) => resetPassword(ctx, c.body), {
      body: ResetPasswordBody,
      ...tag('Set a new password with a reset link (token, password, passwordRepeat); ends every session, does not log in'),
    })
}

export function identityRoutes(ctx: AppContext) {
  return new Elysia({ name: 'identity' }).use(authRoutes(ctx)).use(ssoRoutes(ctx)).use(userRoutes(ctx)).use(tfaRoutes(ctx)).use(passwordResetRoutes(ctx))
}
