// Agency users (AGENCY.USERS): the colleagues of the current agency, invitations and roles; the
// public half of an invitation (look at it, accept it).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { sessionCookie } from '../identity/session'
import { AcceptInvitationBody, InviteBody, RoleBody } from './model'
import { acceptInvitation, changeRole, invitationInfo, inviteMember, listMembers, removeMember, resendInvitation } from './service'

const IdParams = z.object({ id: idParam() })
const doc = (summary: string) => ({ detail: { tags: ['agency users'], summary } })

export function agencyUserRoutes(ctx: AppContext) {
  return new Elysia({ name: 'agency-users' })
    .get('/proxy/api/agency/users', async (c) => listMembers(ctx, await requireOrganiser(ctx, c, 'AGENCY.USERS')), doc('Colleagues of the current agency with the agencyUsers limit'))
    .post(
      '/proxy/api/agency/users',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.USERS')
        c.set.status = 201
        return inviteMember(ctx, actor, c.body)
      },
      { body: InviteBody, ...doc('Invite a colleague by e-mail with a role (mails a link; PENDING_ACTIVATION until used)') },
    )
    .post(
      '/proxy/api/agency/users/:id/resendInvitation',
      async (c) => resendInvitation(ctx, await requireOrganiser(ctx, c, 'AGENCY.USERS'), c.params.id),
      { params: IdParams, ...doc('Send the invitation link again (the old one stops working)') },
    )
    .patch(
      '/proxy/api/agency/users/:id',
      async (c) => changeRole(ctx, await requireOrganiser(ctx, c, 'AGENCY.USERS'), c.params.id, c.body.userRole),
      { params: IdParams, body: RoleBody, ...doc('Change the role of a colleague') },
    )
    .delete(
      '/proxy/api/agency/users/:id',
      async (c) => {
        await removeMember(ctx, await requireOrganiser(ctx, c, 'AGENCY.USERS'), c.params.id)
        return { deleted: true }
      },
      { params: IdParams, ...doc('Remove a colleague\'s account from the agency') },
    )
    .get(
      '/proxy/api/public/invitation',
      async (c) => invitationInfo(ctx, c.query.token),
      { query: z.object({ token: z.string().min(10, 'INVALID').max(200, 'INVALID') }), ...doc('What an invitation link is for (e-mail, agency, role, needsPassword)') },
    )
    .post(
      '/proxy/api/public/invitation',
      async (c) => {
        const r = await acceptInvitation(ctx, c.body, { userAgent: c.request.headers.get('user-agent'), ip: clientIp(c.request, c.server, ctx.config.server.trusted_proxies) })
        if (r.loggedIn) c.set.headers['set-cookie'] = sessionCookie(ctx, r.token, r.expiresAt)
        return { accountId: r.accountId, loggedIn: r.loggedIn }
      },
      { body: AcceptInvitationBody, ...doc('Accept an invitation; a new user sets the password (password, passwordRepeat) and is logged in') },
    )
}
