import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { requireGuest } from '../identity/auth'
import { guestEvents } from './service'

export function guestRoutes(ctx: AppContext) {
  const guestDetails = async (c: any) => {
    const g = await requireGuest(ctx, c)
    return {
      user: { id: g.user.id, email: g.user.email, userStatus: g.user.status, language: { id: g.user.language, code: g.user.language }, isAccount: false, design: g.user.design },
      via: g.via,
      features: ctx.license.features,
    }
  }
  return new Elysia({ name: 'guest' })
    .get(
      '/proxy/api/guest/events',
      async (c) => {
        const g = await requireGuest(ctx, c)
        return guestEvents(ctx, g.user.id)
      },
      { detail: { tags: ['guest'], summary: 'The guest\'s events in the dashboard groups' } },
    )
    .get('/userDetails/guest', guestDetails, { detail: { tags: ['guest'], summary: 'Guest user details (guest token or session)' } })
    .get('/proxy/userDetails/guest', guestDetails, { detail: { tags: ['guest'], summary: 'Alias of /userDetails/guest' } })
}
