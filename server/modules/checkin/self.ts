// Self check-in: the guest checks themself and their escorts in and out from the link
// /guest/checkin/{token} (the registration's event_token), no login. It runs through the desk's
// performCheckin, so both share one set of rules and the same conditional updates (no double
// check-in under concurrency); only the gates differ: the event must allow self check-in /
// check-out, and check-in opens at checkinOpenDate (the desk can always check in).
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { formatDate, formatTime } from '../../i18n/format'
import { AppError, notFound } from '../../shared/errors'
import { agreementsOfVisitor, signAgreements } from '../agreements/service'
import type { EventRow } from '../events/events.table'
import { escortDto } from '../visitors/dto'
import type { EventVisitorRow } from '../visitors/visitors.table'
import { CHECKIN_STATUSES, type DeskVisitor, escortsOf, hasAgreements, performCheckin } from './service'
import { orderStateOf, ticketBlock, withLatestOrder } from './ticket-validity'
import type { Person } from './model'
import { prepared } from '../../db/prepared'
import type { CheckInOutInput } from './self-model'

/**
 * Extra fields of the self check-in answer other modules provide (guest-docs: the name-tags
 * download token as `tokens.downloadTokenNameTags`), merged into `tokens`.
 */
export const selfCheckinTokenParts: Array<(ctx: AppContext, v: EventVisitorRow, event: EventRow) => Promise<Record<string, string | null>>> = []

// the hot path's statements, compiled once (db/prepared.ts)
// the registration with its latest ticket order (ticket-validity.ts): a ticket not (yet) valid is refused without another query
const visitorByToken = prepared((db, p: { token: string }) => withLatestOrder(db.selectFrom('event_visitor as v').selectAll('v').where('v.event_token', '=', p.token)))
const eventById = prepared((db, p: { id: number }) => db.selectFrom('event').selectAll().where('id', '=', p.id))
const visitorById = prepared((db, p: { id: number }) => withLatestOrder(db.selectFrom('event_visitor as v').selectAll('v').where('v.id', '=', p.id)))

async function byToken(db: Db, token: string) {
  const v = (await visitorByToken.first(db, { token })) as DeskVisitor | undefined
  if (!v || v.status === 'DELETED') throw notFound()
  const event = (await eventById.first(db, { id: v.event_id })) as EventRow | undefined
  if (!event || event.status === 'DELETED') throw notFound()
  return { v, event }
}

/** Where the guest goes after checking in (checkinTarget), or null. */
export function checkinRedirect(ctx: AppContext, event: EventRow): string | null {
  switch (event.checkin_target) {
    case 'EVENT_PAGE':
      return `${ctx.config.baseUrl}/public/event/${event.id}`
    case 'MEETING_URL':
      return event.meeting_url || null
    case 'CUSTOM':
      return event.checkin_url || null
    default:
      return null
  }
}

const opened = (ctx: AppContext, event: EventRow) => !event.checkin_open_date || new Date(event.checkin_open_date).getTime() <= ctx.clock.now().getTime()

/** What the self check-in dialog shows: persons with their state, counts, rights, agreements. */
export async function prepareCheckin(ctx: AppContext, token: string) {
  const { v, event } = await byToken(ctx.db, token)
  return selfCheckinView(ctx, v.id, event, undefined, v)
}

/**
 * The dialog's view. After a check-in the persons' states come from its answer (`after`), so the hot
 * path reads the registration once more only for its flags, not the escorts again.
 */
async function selfCheckinView(ctx: AppContext, visitorId: number, event: EventRow, after?: Person[], known?: DeskVisitor) {
  const v = known ?? ((await visitorById.first(ctx.db, { id: visitorId })) as DeskVisitor)
  // a ticket that is not (yet) valid (ticket-validity.ts): why, so the page can say it
  const ticketBlocked = ticketBlock(orderStateOf(v), event.invoice_tickets)
  const [escortRows, agreements, extra] = await Promise.all([
    after ? Promise.resolve([]) : escortsOf(ctx.db, v),
    // in the registration's language, as the guest's mails and dashboard (agreements/translations.ts)
    (await hasAgreements(ctx.db, event)) ? agreementsOfVisitor(ctx, event, v.id, v.language) : Promise.resolve([]),
    selfCheckinTokenParts.length ? Promise.all(selfCheckinTokenParts.map((p) => p(ctx, v, event))) : Promise.resolve([]),
  ])
  const escorts = after
    ? after.filter((p) => p.person > 0).map((p) => ({ number: p.person, salutation: p.salutation, title: p.title, firstName: p.firstName, lastName: p.lastName, checkedIn: p.checkState !== 'OPEN', checkedOut: p.checkState === 'CHECKED_OUT', checkState: p.checkState, checkinDate: p.checkinDate, checkoutDate: p.checkoutDate }))
    : escortRows.map(escortDto)
  const states = [{ in: bool(v.main_guest_checked_in), out: bool(v.main_guest_checked_out) }, ...escorts.map((e) => ({ in: e.checkedIn, out: e.checkedOut }))]
  const isOpen = opened(ctx, event)
  return {
    id: v.id,
    status: v.status,
    salutation: v.salutation,
    title: v.title,
    firstName: v.first_name,
    lastName: v.last_name,
    visitorCount: v.visitor_count,
    /** persons in now */
    checkinCount: states.filter((s) => s.in && !s.out).length,
    checkoutCount: states.filter((s) => s.out).length,
    mainGuestCheckedIn: bool(v.main_guest_checked_in),
    mainGuestCheckedOut: bool(v.main_guest_checked_out),
    mainGuestCheckinDate: v.main_guest_checkin_date,
    mainGuestCheckoutDate: v.main_guest_checkout_date,
    escortPersons: escorts,
    canCheckin: (CHECKIN_STATUSES as readonly string[]).includes(v.status) && !ticketBlocked,
    /** UNPAID, PAYMENT_PENDING, CANCELED, REFUNDED: the ticket order does not admit (yet); null otherwise */
    ticketBlocked,
    allowSelfCheckin: bool(event.allow_self_checkin),
    allowSelfCheckout: bool(event.allow_self_checkout),
    checkinOpened: isOpen,
    checkinOpenDate: event.checkin_open_date,
    checkinTarget: event.checkin_target,
    checkinUrl: checkinRedirect(ctx, event),
    agreements,
    missingAgreements: agreements.filter((a) => a.appearance === 'REQUIRED' && a.status !== 'CONFIRMED').map((a) => ({ id: a.id, displayName: a.displayName })),
    tokens: Object.assign({ downloadToken: v.download_token }, ...extra) as Record<string, string | null>,
    event: { id: event.id, displayName: event.display_name, subTitle: event.sub_title, startDate: event.start_date, endDate: event.end_date, timezone: event.timezone, primaryColor: event.primary_color },
  }
}

/** POST /api/guest/checkInOut: agreements first, then the desk's check-in with the self check-in gates. */
export async function selfCheckInOut(ctx: AppContext, input: CheckInOutInput) {
  const { v, event } = await byToken(ctx.db, input.token)
  const wantsIn = input.checkinGuests.length > 0
  const wantsOut = input.checkoutGuests.length > 0
  if (!wantsIn && !wantsOut) throw new AppError(400, 'NO_GUESTS_SELECTED', { fields: [{ field: 'checkinGuests', errorType: 'NO_GUESTS_SELECTED' }] })
  if ((wantsIn && !bool(event.allow_self_checkin)) || (wantsOut && !bool(event.allow_self_checkout))) throw new AppError(403, 'SELF_CHECKIN_NOT_ALLOWED')
  if (wantsIn && !opened(ctx, event)) {
    const at = event.checkin_open_date!
    throw new AppError(409, 'CHECKIN_NOT_OPEN', { params: { date: formatDate(at, event.timezone), time: formatTime(at, event.timezone) }, extra: { checkinOpenDate: at } })
  }
  if (input.agreements.length) await signAgreements(ctx, event, v, { agreements: input.agreements }, 'SELF_CHECKIN', null, v.language)
  const result = (await performCheckin(ctx, event, null, { visitorId: v.id, checkinGuests: input.checkinGuests, checkoutGuests: input.checkoutGuests, nonce: input.nonce, note: null, ignoreMissingAgreements: false }, 'SELF', v)) as {
    status?: string
    persons?: Person[]
    checkedIn?: number[]
    checkedOut?: number[]
  }
  // the registration after the change, from the check-in's own answer (no second read)
  const main = result.persons?.find((p) => p.person === 0)
  const after: DeskVisitor | undefined =
    result.persons && main
      ? {
          ...v,
          status: (result.status ?? v.status) as EventVisitorRow['status'],
          main_guest_checked_in: (main.checkState !== 'OPEN') as never,
          main_guest_checked_out: (main.checkState === 'CHECKED_OUT') as never,
          main_guest_checkin_date: main.checkinDate,
          main_guest_checkout_date: main.checkoutDate,
        }
      : undefined
  const view = await selfCheckinView(ctx, v.id, event, result.persons, after)
  const checkedIn = result.checkedIn ?? []
  return { ...view, checkedIn, checkedOut: result.checkedOut ?? [], redirectUrl: checkedIn.length ? view.checkinUrl : null, at: isoNow(ctx.clock.now()) }
}
