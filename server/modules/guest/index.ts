import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { requestLanguage } from '../../http/request'
import { notFound } from '../../shared/errors'
import { email, idParam } from '../../shared/validation'
import { requireGuest } from '../identity/auth'
import { accountDto, userDto } from '../identity/dto'
import { listAccountsOfUser } from '../identity/repository'
import { isGuestRole } from '../identity/roles'
import { enabledMethods } from '../identity/tfa'
import { resendAccessLink } from './access-link'
import { guestEvents } from './service'
import { guestBrand } from '../agency/branding'
import { guestPortalRoutes } from './portal'

export function guestRoutes(ctx: AppContext) {
  const guestDetails = async (c: any) => {
    const g = await requireGuest(ctx, c)
    const [accounts, methods] = await Promise.all([listAccountsOfUser(ctx.db, g.user.id), enabledMethods(ctx.db, g.user.id)])
    const current = g.session?.account_id != null ? (accounts.find((a) => a.id === g.session!.account_id) ?? null) : null
    // the shell's header: the agency's logo (or name) instead of einlass's mark (agency/branding.ts)
    const brand = await guestBrand(ctx.db, g.user.id, current && isGuestRole(current.user_role) ? current.agency_id : null)
    return { user: userDto(g.user, current, accounts, methods.length > 0), via: g.via, features: ctx.license.features, brand }
  }
  const guestAccounts = async (c: any) => {
    const g = await requireGuest(ctx, c)
    const accounts = await listAccountsOfUser(ctx.db, g.user.id)
    return {
      user: userDto(g.user, null, accounts),
      via: g.via,
      accounts: accounts.filter((a) => isGuestRole(a.user_role)).map((a) => accountDto(a, ctx.license.features)),
      features: ctx.license.features,
    }
  }
  return new Elysia({ name: 'guest' })
    .use(guestPortalRoutes(ctx))
    .get(
      '/proxy/api/guest/events',
      async (c) => {
        const g = await requireGuest(ctx, c)
        // the events' texts in the page's language where the organiser translated them
        return guestEvents(ctx, g.user.id, requestLanguage(c.request, ctx.license.features))
      },
      { detail: { tags: ['guest'], summary: 'The guest\'s events in the dashboard groups' } },
    )
    .get('/userDetails/guest', guestDetails, { detail: { tags: ['guest'], summary: 'Guest user details (guest token or session; ?t= cache buster)' } })
    .get('/proxy/userDetails/guest', guestDetails, { detail: { tags: ['guest'], summary: 'Alias of /userDetails/guest' } })
    .get('/userDetails/guestAccount', guestAccounts, { detail: { tags: ['guest'], summary: 'The guest with their guest-role accounts (?t= cache buster)' } })
    .get('/proxy/userDetails/guestAccount', guestAccounts, { detail: { tags: ['guest'], summary: 'Alias of /userDetails/guestAccount' } })
    .get(
      '/proxy/account/guest',
      async (c) => {
        const g = await requireGuest(ctx, c)
        const account = (await listAccountsOfUser(ctx.db, g.user.id)).find((a) => a.agency_id === c.query.agency && isGuestRole(a.user_role))
        if (!account) throw notFound()
        return accountDto(account, ctx.license.features)
      },
      { query: z.object({ agency: idParam() }), detail: { tags: ['guest'], summary: 'The guest\'s account in one agency' } },
    )
    .post(
      '/proxy/api/public/visitor/resendMail',
      async (c) => resendAccessLink(ctx, c.body.email, clientIp(c.request, c.server, ctx.config.server.trusted_proxies)),
      {
        body: z.object({ email: email() }),
        detail: { tags: ['guest'], summary: 'Mail an access link to a guest (NOT_FOUND: no guest with this e-mail; USER_HAS_ACCOUNT: log in instead)' },
      },
    )
}
