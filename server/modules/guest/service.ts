// The guest dashboard: a guest's registrations, grouped as guest-side.md section 2 lists them.
import type { AppContext } from '../../context'
import type { VisitorStatus } from '../visitors/visitors.table'
import { publicEventDto } from '../events/dto'
import { translationsOfEvents, withTranslation } from '../events/translations'
import { escortDto } from '../visitors/dto'
import { bool, fromJson } from '../../db/types'
import { waitingListPositions } from '../visitors/repository'
import { canEditData, hasGuestChangeFields, registrationExpired } from './details'
import { formDefinitions } from '../forms/service'
import { canTransfer, transferDeadline } from './transfer'
import { dashboardTokens, ticketBlocks } from '../documents/tokens'
import { missingRequiredAgreements } from '../agreements/repository'
import { guestOrders } from '../ticketing/orders/guest-list'

export type GuestList = 'pendingEvents' | 'confirmedEvents' | 'invitedEvents' | 'openEvents' | 'declinedEvents'

/**
 * Which dashboard section a registration status belongs to. DELETED is not shown, except a
 * registration deleted with its cancelled or refunded ticket order (endedOrders): listed as declined.
 */
export const LIST_OF_STATUS: Record<VisitorStatus, GuestList | null> = {
  PENDING: 'pendingEvents',
  CONFIRMED: 'confirmedEvents',
  APPEARED: 'confirmedEvents',
  INVITED: 'invitedEvents',
  OPEN: 'openEvents',
  ADDED: 'openEvents',
  REQUIRE_APPROVAL: 'openEvents',
  WAITING_LIST: 'openEvents',
  DECLINED: 'declinedEvents',
  VISITOR_DECLINED: 'declinedEvents',
  DELETED: null,
}

export async function guestEvents(ctx: AppContext, userId: number, language = 'de') {
  const rows = await ctx.db
    .selectFrom('event_visitor as v')
    .innerJoin('event as e', 'e.id', 'v.event_id')
    .innerJoin('agency as a', 'a.id', 'e.agency_id')
    .selectAll('e')
    .select([
      'v.id as v_id',
      'v.status as v_status',
      'v.event_token as v_event_token',
      'v.download_token as v_download_token',
      'v.download_token_ics as v_download_token_ics',
      'v.download_token_wallet as v_download_token_wallet',
      'v.visitor_count as v_visitor_count',
      'v.salutation as v_salutation',
      'v.title as v_title',
      'v.first_name as v_first_name',
      'v.last_name as v_last_name',
      'v.email as v_email',
      'v.main_guest_checked_in as v_main_guest_checked_in',
      'a.display_name as agency_display_name',
      'a.logo_asset_id as agency_logo_asset_id',
    ])
    .where('v.user_id', '=', userId)
    // a registration deleted with its ticket order cancelled or refunded stays (its state, no documents)
    .where((eb) =>
      eb.or([
        eb('v.status', '!=', 'DELETED'),
        eb.exists(eb.selectFrom('ticket_order as o').select('o.id').whereRef('o.visitor_id', '=', 'v.id').where('o.status', 'in', ['CANCELED', 'REFUNDED', 'DELETED'])),
      ]),
    )
    .where('e.status', '!=', 'DELETED')
    .orderBy('e.start_date')
    .execute()
  const escorts = rows.length
    ? await ctx.db
        .selectFrom('escort_person')
        .selectAll()
        .where(
          'visitor_id',
          'in',
          rows.map((r) => r.v_id),
        )
        .orderBy('number')
        .execute()
    : []
  // a ticket not valid yet (a transfer waiting for its money …): no ticket documents, and the reason
  const blocks = await ticketBlocks(ctx.db, rows)
  const ended = await endedOrders(ctx, rows.filter((r) => r.v_status === 'DELETED').map((r) => r.v_id))
  const tokens = await dashboardTokens(ctx, rows, blocks)
  const positions = await waitingListPositions(
    ctx.db,
    rows.filter((r) => r.v_status === 'WAITING_LIST').map((r) => r.v_id),
  )
  // the registrations' open or bought ticket orders: the card offers paying instead of confirming,
  // and withdrawing only while nothing is paid or owed (docs/ticketing.md)
  const orders = await guestOrders(ctx.db, rows.map((r) => r.v_id))
  const now = ctx.clock.now()
  // the REQUIRED agreements each registration has not signed yet (the dashboard shows a line per one)
  const missing = new Map(
    await Promise.all(
      rows
        .filter((r) => LIST_OF_STATUS[r.v_status] && !['DECLINED', 'VISITOR_DECLINED'].includes(r.v_status))
        .map(async (r) => [r.v_id, await missingRequiredAgreements(ctx.db, { id: r.id, agency_id: r.agency_id }, r.v_id)] as const),
    ),
  )
  // "Angaben ändern" only where the form has something the guest may change (per event, cached forms)
  const changeable = new Map(
    await Promise.all(
      [...new Map(rows.filter((r) => canEditData(r)).map((r) => [r.id, r])).values()].map(async (e) => [e.id, hasGuestChangeFields(await formDefinitions(ctx.db, e))] as const),
    ),
  )
  const translated = await translationsOfEvents(ctx.db, [...new Set(rows.map((r) => r.id))], language)
  const lists: Record<GuestList, unknown[]> = { pendingEvents: [], confirmedEvents: [], invitedEvents: [], openEvents: [], declinedEvents: [] }
  for (const r of rows) {
    const end = ended.get(r.v_id)
    const list = LIST_OF_STATUS[r.v_status] ?? (end ? 'declinedEvents' : null)
    if (!list) continue
    const event = publicEventDto(ctx, withTranslation(r, translated.get(r.id)), { id: r.agency_id, display_name: r.agency_display_name, logo_asset_id: r.agency_logo_asset_id })
    lists[list].push({
      id: r.v_id,
      event,
      eventToken: r.v_event_token,
      registrationStatus: { status: r.v_status, options: fromJson<string[]>(r.options, []) },
      tokens: tokens.get(r.v_id) ?? {},
      /** UNPAID, PAYMENT_PENDING, CANCELED, REFUNDED: why a registered guest has no ticket documents (yet); null otherwise */
      ticketBlocked: blocks.get(r.v_id) ?? end?.block ?? null,
      visitorCount: r.v_visitor_count,
      /** self check-in at /guest/checkin/{eventToken} (guest-extras) */
      allowSelfCheckin: bool(r.allow_self_checkin),
      allowSelfCheckout: bool(r.allow_self_checkout),
      /** WAITING_LIST only: the place in the event's waiting list */
      waitingListPosition: positions.get(r.v_id) ?? null,
      /** guest portal: what the dashboard offers for this registration */
      canEditRegistrationData: !end && canEditData(r) && !registrationExpired(r, now) && changeable.get(r.id) === true,
      registrationExpired: registrationExpired(r, now),
      // not while the ticket is not valid: the new person would be promised a ticket that does not exist yet
      canTransfer: canTransfer(r, { status: r.v_status, main_guest_checked_in: r.v_main_guest_checked_in }, now) && !blocks.has(r.v_id),
      transferUntil: bool(r.allow_transfer) ? transferDeadline(r) : null,
      /** the registration's ticket order while it is open or bought: `id` for /pay/{id} */
      ticketOrder: orders.get(r.v_id) ?? end?.order ?? null,
      escortPersons: escorts.filter((e) => e.visitor_id === r.v_id).map(escortDto),
      missingAgreements: (missing.get(r.v_id) ?? []).map((a) => ({ id: a.id, displayName: a.display_name })),
      defaultFields: [
        { key: 'SALUTATION', data: r.v_salutation, appearance: 'REQUIRED' },
        { key: 'TITLE', data: r.v_title, appearance: 'VISIBLE' },
        { key: 'FIRST_NAME', data: r.v_first_name, appearance: 'REQUIRED' },
        { key: 'LAST_NAME', data: r.v_last_name, appearance: 'REQUIRED' },
        { key: 'EMAIL', data: r.v_email, appearance: 'REQUIRED' },
      ],
    })
  }
  return lists
}

/**
 * The DELETED registrations (of this guest) whose latest ticket order was cancelled or refunded: the
 * dashboard lists them with that state, the reason and the order's pay page (which shows it), nothing
 * else. A registration deleted otherwise (the organiser removed the guest) stays hidden.
 */
async function endedOrders(ctx: AppContext, visitorIds: number[]) {
  const out = new Map<number, { block: 'CANCELED' | 'REFUNDED'; order: { id: string; status: string; step: number; withdrawable: false } }>()
  if (!visitorIds.length) return out
  const rows = await ctx.db.selectFrom('ticket_order').select(['visitor_id', 'public_id', 'status', 'step']).where('visitor_id', 'in', visitorIds).orderBy('id').execute()
  const latest = new Map(rows.map((o) => [o.visitor_id!, o]))
  for (const [id, o] of latest) {
    if (o.status !== 'CANCELED' && o.status !== 'REFUNDED' && o.status !== 'DELETED') continue
    out.set(id, { block: o.status === 'REFUNDED' ? 'REFUNDED' : 'CANCELED', order: { id: o.public_id, status: o.status, step: o.step, withdrawable: false } })
  }
  return out
}
