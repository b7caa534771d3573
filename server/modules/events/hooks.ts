// Other modules copy their per-event data (form fields, agreements …) when an event is copied, in
// the same transaction, by registering here. Keeps the events module free of their imports.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import type { EventRow } from './events.table'

export type EventCopiedHook = (ctx: AppContext, trx: Db, from: { id: number; agencyId: number }, to: { id: number; agencyId: number }) => Promise<void>

export const onEventCopied: EventCopiedHook[] = []

/**
 * Checks of other modules before an event's settings change, in the update's transaction (ticketing:
 * the currency of an event with categories, going online while selling tickets without a payment
 * method). `next` holds the columns about to be written. Throw an AppError to refuse.
 */
export type EventUpdatingHook = (ctx: AppContext, trx: Db, current: EventRow, next: { currency: string; visibility: string }) => Promise<void>

export const onEventUpdating: EventUpdatingHook[] = []
