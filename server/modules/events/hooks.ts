// Other modules copy their per-event data (form fields, agreements …) when an event is copied, in
// the same transaction, by registering here. Keeps the events module free of their imports.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'

export type EventCopiedHook = (ctx: AppContext, trx: Db, from: { id: number; agencyId: number }, to: { id: number; agencyId: number }) => Promise<void>

export const onEventCopied: EventCopiedHook[] = []
