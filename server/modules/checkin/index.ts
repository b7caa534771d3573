// Check-in desk calls and the guest's ticket QR code.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { requireGuest, requireOrganiser } from '../identity/auth'
import { detailParts } from '../visitors/detail'
import { assertTicketValid } from '../documents/service'
import { CheckinInput, LookupQuery } from './model'
import { CHECKIN_STATUSES, checkinCounts, lookup, performCheckin, presenceOf } from './service'
import { signTicketCode } from './signed-code'
import { ensureTicketCode, formatTicketCode } from './ticket'
import { prepareCheckin, selfCheckInOut } from './self'
import { CheckInOutInput, PrepareCheckinInput } from './self-model'
import { createList, deleteList, listDtos, listOfEvent, updateList } from './lists'
import { listCounts } from './list-checkin'
import { CheckinListInput } from './lists-model'

const EventParams = z.object({ id: idParam() })
const ListParams = z.object({ id: idParam(), listId: idParam() })

detailParts.push(async (ctx, v) => {
  const canCheckin = (CHECKIN_STATUSES as readonly string[]).includes(v.status)
  const code = v.ticket_code ?? (canCheckin ? await ensureTicketCode(ctx.db, v.id) : null)
  return { presentDates: await presenceOf(ctx.db, v.id), ticketCode: code ? formatTicketCode(code) : null }
})

export function checkinRoutes(ctx: AppContext) {
  return new Elysia({ name: 'checkin' })
    .get(
      '/proxy/api/events/:id/checkin/lookup',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        return lookup(ctx, event, c.query)
      },
      { params: EventParams, query: LookupQuery, detail: { tags: ['checkin'], summary: 'Find a registration by ticket code or name for the desk' } },
    )
    .post(
      '/proxy/api/events/:id/checkin',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        if (event.status === 'DELETED') throw notFound()
        const result = await performCheckin(ctx, event, actor.account.id, c.body)
        // a check-out at the desk is how a wrong check-in is put right: recorded (check-ins are not,
        // they are the desk's everyday work and the hot path)
        const out = c.body.checkoutGuests
        if (out === 'ALL' || out.length) await audit(ctx, ctx.db, { agencyId: event.agency_id, actor, action: 'checkin.correct', entityType: 'registration', entityId: c.body.visitorId ?? null, eventId: event.id, detail: { checkout: out, ...(c.body.code ? { code: c.body.code.slice(0, 12) } : {}), ...(c.body.note ? { note: c.body.note } : {}) } })
        return result
      },
      { params: EventParams, body: CheckinInput, detail: { tags: ['checkin'], summary: 'Check persons of a registration in and/or out (idempotent with nonce)' } },
    )
    .get(
      '/proxy/api/events/:id/checkin/counts',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        // one list's counts (the desk on that list), or the event's as before
        if (c.query.listId) return listCounts(ctx.db, await listOfEvent(ctx.db, event.id, c.query.listId))
        return checkinCounts(ctx.db, event.id)
      },
      { params: EventParams, query: z.object({ listId: idParam().optional() }), detail: { tags: ['checkin'], summary: 'Live counts: persons registered, checked in now, checked out' } },
    )
    // check-in lists (docs/ticketing.md "Check-in lists"): the desk reads them, the event's editors change them
    .get(
      '/proxy/api/events/:id/checkin/lists',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
        return { items: await listDtos(ctx, await eventOfAgency(ctx, actor, c.params.id)) }
      },
      { params: EventParams, detail: { tags: ['checkin'], summary: 'The check-in lists of an event (none: one implicit list)' } },
    )
    .post(
      '/proxy/api/events/:id/checkin/lists',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        c.set.status = 201
        return createList(ctx, event, c.body)
      },
      { params: EventParams, body: CheckinListInput, detail: { tags: ['checkin'], summary: 'Create a check-in list (name, admitted ticket categories; empty = all)' } },
    )
    .put(
      '/proxy/api/events/:id/checkin/lists/:listId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return updateList(ctx, await eventOfAgency(ctx, actor, c.params.id), c.params.listId, c.body)
      },
      { params: ListParams, body: CheckinListInput, detail: { tags: ['checkin'], summary: 'Rename a check-in list or change its categories' } },
    )
    .delete(
      '/proxy/api/events/:id/checkin/lists/:listId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        await deleteList(ctx, await eventOfAgency(ctx, actor, c.params.id), c.params.listId)
        return { ok: true }
      },
      { params: ListParams, detail: { tags: ['checkin'], summary: 'Delete a check-in list' } },
    )
    // self check-in (guest-side.md 7): open calls, the registration's token is the key
    .post('/proxy/api/guest/prepareCheckin', async (c) => prepareCheckin(ctx, c.body.token), {
      body: PrepareCheckinInput,
      detail: { tags: ['guest'], summary: 'Self check-in: the persons of the registration behind the token, their state, rights and agreements (no login)' },
    })
    .post('/proxy/api/guest/checkInOut', async (c) => selfCheckInOut(ctx, c.body), {
      body: CheckInOutInput,
      detail: { tags: ['guest'], summary: "Self check-in: check persons in/out (origin 'selfcheckin'), storing the agreements (id, status, signature) given first" },
    })
    .get(
      '/proxy/api/guest/events/visitors/:vid/ticket',
      async (c) => {
        const guest = await requireGuest(ctx, c)
        const v = await ctx.db.selectFrom('event_visitor').select(['id', 'user_id', 'status', 'event_id']).where('id', '=', c.params.vid).executeTakeFirst()
        if (!v || v.user_id !== guest.user.id) throw notFound()
        if (!(CHECKIN_STATUSES as readonly string[]).includes(v.status)) throw new AppError(409, 'NO_TICKET')
        // no QR code before the ticket is valid (an order waiting for its money): the error says why
        const event = await ctx.db.selectFrom('event').select('invoice_tickets').where('id', '=', v.event_id).executeTakeFirstOrThrow()
        await assertTicketValid(ctx, v.id, event)
        const code = await ensureTicketCode(ctx.db, v.id)
        // the QR carries the signed payload (signed-code.ts); the short code stays for typing at the desk
        const qrPayload = signTicketCode(ctx.secrets.signingKey, { eventId: v.event_id, visitorId: v.id, person: 0, ticketCode: code })
        const qrSvg = await (await import('qrcode')).default.toString(qrPayload, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
        return { ticketCode: formatTicketCode(code), qrPayload, qrSvg }
      },
      { params: z.object({ vid: idParam() }), detail: { tags: ['guest'], summary: "The guest's ticket code and its QR code (SVG) for a registered event" } },
    )
}
