// Which organiser action may move a registration from which status (docs/organiser.md, "Guests").
import type { VisitorStatus } from './visitors.table'
import type { VisitorAction } from './model'

// approve from WAITING_LIST is the move-up ("Nachrücken"): the organiser gives the guest a place.
export const ACTION_FROM: Record<VisitorAction, readonly VisitorStatus[]> = {
  approve: ['REQUIRE_APPROVAL', 'PENDING', 'INVITED', 'ADDED', 'OPEN', 'DECLINED', 'VISITOR_DECLINED', 'WAITING_LIST'],
  decline: ['REQUIRE_APPROVAL', 'PENDING', 'INVITED', 'ADDED', 'OPEN', 'CONFIRMED', 'WAITING_LIST'],
  invite: ['ADDED', 'OPEN', 'DECLINED', 'VISITOR_DECLINED', 'INVITED', 'PENDING'],
  delete: ['CONFIRMED', 'INVITED', 'ADDED', 'APPEARED', 'REQUIRE_APPROVAL', 'DECLINED', 'OPEN', 'PENDING', 'VISITOR_DECLINED', 'WAITING_LIST'],
  restore: ['DELETED'],
}

export const canDo = (action: VisitorAction, status: VisitorStatus) => ACTION_FROM[action].includes(status)

/**
 * Statuses a guest may confirm from the dashboard, and decline from: withdrawing a request that awaits
 * approval, or leaving the waiting list, is declining too (no place is held there, none is given back).
 */
export const GUEST_ACTIVATABLE: readonly VisitorStatus[] = ['INVITED', 'PENDING']
export const GUEST_REJECTABLE: readonly VisitorStatus[] = ['INVITED', 'PENDING', 'CONFIRMED', 'REQUIRE_APPROVAL', 'OPEN', 'WAITING_LIST']
