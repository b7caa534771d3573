// POST/DELETE /api/public/reservation/... (served under /proxy/api, /api is an alias).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { AvailabilitiesInput, DeleteInput, RenewInput, ReserveInput } from './model'
import { availabilities, deleteReservations, renewReservations, reserveTimeslot } from './service'

const tags = ['reservations']

export function reservationRoutes(ctx: AppContext) {
  return new Elysia({ name: 'reservations' })
    .post('/proxy/api/public/reservation/timeslot', ({ body, request, server }) => reserveTimeslot(ctx, body, clientIp(request, server, ctx.config.server.trusted_proxies)), {
      body: ReserveInput,
      detail: { tags, summary: 'Reserve places in a timeslot while the form is filled in (409 TIMESLOT_NOT_AVAILABLE / TIMESLOT_NOT_RESERVED with succeeded false and freeSlots)' },
    })
    .post('/proxy/api/public/reservation/timeslot/renew', ({ body }) => renewReservations(ctx, body.identification), {
      body: RenewInput,
      detail: { tags, summary: 'Extend every timed reservation of this visitor; answers the new expireDate' },
    })
    .delete('/proxy/api/public/reservation/timeslot', ({ body }) => deleteReservations(ctx, body), {
      body: DeleteInput,
      detail: { tags, summary: 'Release a reservation by token, or all timed ones of a visitor (deleteAllTimed + identification)' },
    })
    // The same release as the DELETE above for navigator.sendBeacon, which can only POST: the public
    // form calls it when the page is left (pagehide), so a guest who goes away holds nothing.
    .post('/proxy/api/public/reservation/timeslot/release', ({ body }) => deleteReservations(ctx, body), {
      body: DeleteInput,
      detail: { tags, summary: 'POST alias of DELETE /reservation/timeslot for navigator.sendBeacon (leaving the form releases its timed holds)' },
    })
    .post('/proxy/api/public/reservation/availabilities', ({ body }) => availabilities(ctx, body.eventId), {
      body: AvailabilitiesInput,
      detail: { tags, summary: 'Free places per timeslot of an event (negative = unlimited)' },
    })
}
