// The organiser's guest list of an event, and the guest's own confirm/decline.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { AppError, fieldError } from '../../shared/errors'
import { idParam, issuesToFields } from '../../shared/validation'
import { freePlaces } from '../events/rules'
import { eventOfAgency } from '../events/service'
import { requireGuest, requireOrganiser } from '../identity/auth'
import { labelsOfVisitors } from '../tags/service'
import { parseContactCard } from './contact-parser'
import { visitorDetail } from './detail'
import { chairsOfVisitors } from '../seating/holds'
import { visitorListDto } from './dto'
import { ActionInput, GuestDecision, GuestListQuery, GuestSearch, VISITOR_ACTIONS, VisitorInput, VisitorPatch, queryToGuestSearch } from './model'
import { searchVisitors, waitingListCount, waitingListPositions } from './repository'
import { activateByGuest, addVisitor, changeStatus, patchVisitor, rejectByGuest, updateVisitor, visitorOfEvent } from './service'

const EventParams = z.object({ id: idParam() })
const VisitorParams = z.object({ id: idParam(), vid: idParam() })
const ActionParams = z.object({ id: idParam(), vid: idParam(), action: z.enum(VISITOR_ACTIONS) })

export function parseGuestQuery(q: z.infer<typeof GuestListQuery>): GuestSearch {
  const r = GuestSearch.safeParse(queryToGuestSearch(q))
  if (!r.success) throw fieldError(issuesToFields(r.error.issues))
  return r.data
}

export function visitorRoutes(ctx: AppContext) {
  const list = async (c: any, s: GuestSearch) => {
    const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
    const event = await eventOfAgency(ctx, actor, c.params.id)
    const { rows, total } = await searchVisitors(ctx.db, event.id, s)
    const waitingIds = rows.filter((r) => r.status === 'WAITING_LIST').map((r) => r.id)
    const [labels, positions, waiting, chairs] = await Promise.all([
      labelsOfVisitors(
        ctx.db,
        rows.map((r) => r.id),
      ),
      waitingListPositions(ctx.db, waitingIds),
      waitingListCount(ctx.db, event.id),
      chairsOfVisitors(
        ctx.db,
        rows.map((r) => r.id),
      ),
    ])
    return {
      // the seats a registration holds on the event's seating plan (label per chair)
      items: rows.map((v) => ({ ...visitorListDto(v, labels.get(v.id), positions.get(v.id) ?? null), chairs: chairs.get(v.id) ?? [] })),
      total,
      page: s.page,
      perPage: s.perPage,
      // for the hint "N Plätze frei, M Gäste auf der Warteliste": nobody moves up on their own
      waitingList: { count: waiting, freePlaces: freePlaces(event) },
    }
  }
  return new Elysia({ name: 'visitors' })
    .post(
      '/proxy/api/public/parser',
      ({ body }) => {
        const contact = parseContactCard(body.data)
        if (!contact) throw new AppError(400, 'PARSER_UNKNOWN_FORMAT')
        return contact
      },
      { body: z.object({ data: z.string().min(1, 'REQUIRED').max(20_000, 'TOO_LONG') }), detail: { tags: ['visitors'], summary: 'Contact card text (vCard, MECARD) to contact data' } },
    )
    .get('/proxy/api/events/:id/visitors', (c) => list(c, parseGuestQuery(c.query)), {
      params: EventParams,
      query: GuestListQuery,
      detail: { tags: ['visitors'], summary: 'Guest list of an event (filter, search, sort and paging as query parameters)' },
    })
    .post('/proxy/api/events/:id/visitors/search', (c) => list(c, c.body), {
      params: EventParams,
      body: GuestSearch,
      detail: { tags: ['visitors'], summary: 'Guest list with the guest filter (agency-side.md 3), search, sort and paging' },
    })
    .post(
      '/proxy/api/events/:id/visitors',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        const v = await addVisitor(ctx, actor, c.params.id, c.body)
        c.set.status = 201
        return visitorDetail(ctx, v)
      },
      { params: EventParams, body: VisitorInput, detail: { tags: ['visitors'], summary: 'Add a guest (status ADDED or CONFIRMED) with escort persons' } },
    )
    .get(
      '/proxy/api/events/:id/visitors/:vid',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        return visitorDetail(ctx, await visitorOfEvent(ctx.db, event, c.params.vid))
      },
      { params: VisitorParams, detail: { tags: ['visitors'], summary: 'One guest with escorts, tags, presence periods and agreements' } },
    )
    .put(
      '/proxy/api/events/:id/visitors/:vid',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        return visitorDetail(ctx, await updateVisitor(ctx, actor, c.params.id, c.params.vid, c.body))
      },
      { params: VisitorParams, body: VisitorInput, detail: { tags: ['visitors'], summary: "Edit a guest's data and escort persons (places follow the person count)" } },
    )
    .patch(
      '/proxy/api/events/:id/visitors/:vid',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        return visitorDetail(ctx, await patchVisitor(ctx, actor, c.params.id, c.params.vid, c.body))
      },
      { params: VisitorParams, body: VisitorPatch, detail: { tags: ['visitors'], summary: 'Set VIP or the note' } },
    )
    .post(
      '/proxy/api/events/:id/visitors/:vid/:action',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, c.params.action === 'invite' ? 'EVENT.INVITE' : 'EVENT.GUEST.MANAGE')
        return visitorDetail(ctx, await changeStatus(ctx, actor, c.params.id, c.params.vid, c.params.action, c.body ?? {}))
      },
      {
        params: ActionParams,
        body: ActionInput.optional(),
        detail: { tags: ['visitors'], summary: 'Status action: approve, decline, invite (re-invite), delete, restore' },
      },
    )
    .post(
      '/proxy/api/guest/events/:id/activate',
      async (c) => {
        const guest = await requireGuest(ctx, c)
        const v = await activateByGuest(ctx, guest, c.params.id, c.body.visitor)
        return { id: v.id, status: v.status }
      },
      { params: EventParams, body: GuestDecision, detail: { tags: ['guest'], summary: 'The guest confirms participation (INVITED/PENDING)' } },
    )
    .post(
      '/proxy/api/guest/events/:id/reject',
      async (c) => {
        const guest = await requireGuest(ctx, c)
        const v = await rejectByGuest(ctx, guest, c.params.id, c.body.visitor, c.body.reason)
        return { id: v.id, status: v.status }
      },
      { params: EventParams, body: GuestDecision, detail: { tags: ['guest'], summary: 'The guest declines participation with an optional reason' } },
    )
}
