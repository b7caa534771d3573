// Every organiser route of ticketing on an event starts alike: the permission, then the event of
// the route's `:id`, which must belong to the actor's agency (another agency's event answers 404,
// docs/architecture.md "Auth"). One helper instead of the two lines repeated per route.
import type { AppContext } from '../../context'
import { eventOfAgency } from '../events/service'
import { type HttpContext, requireOrganiser } from '../identity/auth'
import type { Permission } from '../identity/roles'

export async function organiserEvent(ctx: AppContext, c: HttpContext & { params: { id: number } }, permission: Permission) {
  const actor = await requireOrganiser(ctx, c, permission)
  return { actor, event: await eventOfAgency(ctx, actor, c.params.id) }
}
