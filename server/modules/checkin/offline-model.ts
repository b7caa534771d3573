// Payloads of the offline desk's calls (docs/checkin-offline.md).
import { z } from 'zod'

export const MAX_SYNC_ITEMS = 5000

export const DeskInput = z.object({ name: z.string().trim().min(1).max(100) })

export const SyncItem = z.object({
  /** the desk's idempotency key of this check-in (unique per desk) */
  key: z.string().trim().min(1).max(100),
  visitorId: z.number().int().positive(),
  /** 0 = main guest, n = escort person n */
  person: z.number().int().min(0).max(100),
  action: z.enum(['IN', 'OUT']),
  /** when it happened at the desk (ISO-8601 with zone) */
  at: z.string().max(40).refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), 'INVALID'),
  listId: z.number().int().positive().optional(),
  /** the generation of the scanned QR code (its 5th part): a retired code is refused */
  generation: z.string().regex(/^[0-9A-Z]{4}$/).optional(),
})
export type SyncItem = z.infer<typeof SyncItem>

export const SyncInput = z.object({
  deskId: z.number().int().positive(),
  /** the cursor of the desk's download or last sync; absent or unknown: no changes, `resync: true` */
  cursor: z.string().max(40).nullable().optional(),
  items: z.array(SyncItem).max(MAX_SYNC_ITEMS),
})
export type SyncInput = z.infer<typeof SyncInput>

/** deskId is checked after the event (a missing one is a field error, never before the 404 of a foreign event) */
export const DeskQuery = z.object({ deskId: z.string().max(20).optional() })
