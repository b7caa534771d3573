// Seating routes: the organiser's plan (manage and assign modes) and the guest's calls of
// guest-side.md §7 (register mode).
import { Elysia } from 'elysia'
import { clientIp } from '../../http/client-address'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { detailParts } from '../visitors/detail'
import { areaChairs, assignCategory, assignChair, chairsOfVisitors, deleteChairHolds, publicPlan, renewChairs, reserveChair } from './holds'
import { AreaQuery, AssignInput, BlockInput, ChairDeleteInput, ChairRenewInput, ChairReserveInput, CopyPlanInput, SeatingPlanInput } from './model'
import { copyPlan, getPlan, occupancy, savePlan, setBlocked } from './plan'

const tags = ['seating']

// the organiser's guest detail shows the seats the registration holds
detailParts.push(async (ctx, v) => {
  const [chairs, seatCategoryId] = await Promise.all([chairsOfVisitors(ctx.db, [v.id]), assignCategory(ctx.db, v.event_id, v.id)])
  // seatCategoryId: assign mode offers only chairs of this price category (null: any)
  return { chairs: chairs.get(v.id) ?? [], seatCategoryId }
})
const EventParams = z.object({ id: idParam() })
// the public event routes name their event :id (the router allows one name per position)
const PublicParams = z.object({ id: idParam() })

export function seatingRoutes(ctx: AppContext) {
  const org = (c: any, p: Parameters<typeof requireOrganiser>[2]) => requireOrganiser(ctx, c, p).then((a) => a.account.agency_id)
  return new Elysia({ name: 'seating' })
    .get('/proxy/api/events/:id/seatingplan', async (c) => getPlan(ctx, await org(c, 'EVENT.VIEW'), c.params.id), {
      params: EventParams,
      detail: { tags, summary: 'The event\'s seating plan: priceCategories and areas with their chairs' },
    })
    .put('/proxy/api/events/:id/seatingplan', async (c) => savePlan(ctx, await org(c, 'EVENT.EDIT'), c.params.id, c.body), {
      params: EventParams,
      body: SeatingPlanInput,
      detail: { tags, summary: 'Save the whole plan (409 SEATING_CHAIR_IN_USE when a chair that holds places would go or shrink)' },
    })
    .post('/proxy/api/events/:id/seatingplan/copy', async (c) => copyPlan(ctx, await org(c, 'EVENT.EDIT'), c.params.id, c.body.fromEventId), {
      params: EventParams,
      body: CopyPlanInput,
      detail: { tags, summary: 'Copy the plan of another event of the agency (fromEventId)' },
    })
    .patch('/proxy/api/events/:id/seatingplan/chairs/:chairId', async (c) => setBlocked(ctx, await org(c, 'EVENT.EDIT'), c.params.id, c.params.chairId, c.body.blocked), {
      params: z.object({ id: idParam(), chairId: idParam() }),
      body: BlockInput,
      detail: { tags, summary: 'Manage mode: block or unblock a chair' },
    })
    .get('/proxy/api/events/:id/seatingplan/occupancy', async (c) => occupancy(ctx, await org(c, 'EVENT.VIEW'), c.params.id), {
      params: EventParams,
      detail: { tags, summary: 'Taken, reserved, blocked and free places per price category' },
    })
    .put('/proxy/api/events/:id/visitors/:vid/chair', async (c) => assignChair(ctx, await org(c, 'EVENT.GUEST.MANAGE'), c.params.id, c.params.vid, c.body.chairId), {
      params: z.object({ id: idParam(), vid: idParam() }),
      body: AssignInput,
      detail: { tags, summary: 'Assign mode: give a guest one place on a chair (replaces the chair it had)' },
    })
    .get('/proxy/api/public/events/:id/seatingplan', async (c) => publicPlan(ctx, c.params.id), {
      params: PublicParams,
      detail: { tags, summary: 'The plan\'s areas and price categories for the public page' },
    })
    .post('/proxy/api/public/events/:id/seatingplanArea', async (c) => areaChairs(ctx, c.params.id, c.body.areaId, c.body.identification, c.body.chairFormat), {
      params: PublicParams,
      body: AreaQuery,
      detail: { tags, summary: 'The chairs of an area with freeChairs and what this visit holds (choosed, choosedAmount, reservationToken); chairFormat "columns" (an einlass extension) answers them as one array per field' },
    })
    .post('/proxy/api/public/events/:id/seatingplan/reservation/chair', async (c) => reserveChair(ctx, c.params.id, c.body, clientIp(c.request, c.server, ctx.config.server.trusted_proxies)), {
      params: PublicParams,
      body: ChairReserveInput,
      detail: { tags, summary: 'Hold places of a chair (409 SEAT_NOT_AVAILABLE / SEAT_NOT_RESERVED / SEAT_MAX_REACHED with succeeded false, freeChairs and rejection)' },
    })
    .post('/proxy/api/public/events/:id/seatingplan/reservation/chair/renew', async (c) => renewChairs(ctx, c.params.id, c.body.identification), {
      params: PublicParams,
      body: ChairRenewInput,
      detail: { tags, summary: 'Extend every chair hold of this visit; answers the new expireDate' },
    })
    .delete('/proxy/api/public/events/:id/seatingplan/reservation/chair', async (c) => deleteChairHolds(ctx, c.params.id, c.body), {
      params: PublicParams,
      body: ChairDeleteInput,
      detail: { tags, summary: 'Give back a hold (reservationToken, optionally amount) or every hold of the visit (deleteAll + identification)' },
    })
}
