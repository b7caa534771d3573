// Anonymous uploads (public registration forms) that no registration claims expire: after
// UNCLAIMED_UPLOAD_HOURS the server deletes them itself (a periodic job of every process's task
// runner). Until a registration claims an upload it counts against no agency's storage, only in the
// small pool of its client address (service.ts, EINLASS_UPLOAD_UNCLAIMED_POOL_MB).
// Safe to run twice and in several processes at once: each row is removed by one conditional DELETE
// (only the process whose DELETE returned the row removes its files; removing a missing file is no
// error). A crash between the two leaves at most an unreferenced file, never a row without its file
// that a guest could still claim.
import type { ExpressionBuilder } from 'kysely'
import type { AppContext } from '../../context'
import type { DB } from '../../db/schema'
import { registerPeriodicJob } from '../tasks/runner'
import { deleteObjects, unclaimedCutoff } from './service'

export { UNCLAIMED_UPLOAD_HOURS } from './service'
/** How often each process looks for expired uploads. */
export const EXPIRY_SWEEP_MS = 10 * 60_000

/** Rows of the anonymous uploads no registration has claimed (yet). */
export const unclaimed = <Q extends { where: (...a: any[]) => Q }>(q: Q): Q => q.where('owner_identification', 'is not', null).where('visitor_id', 'is', null)

const cutoffAt = unclaimedCutoff

/**
 * A claim's condition: an anonymous upload past its expiry is gone for the guest at once, also in
 * the minutes before the sweep deletes it (uploads of logged-in users do not expire).
 */
export const notExpired = (now: Date) => {
  const cutoff = cutoffAt(now)
  return (eb: ExpressionBuilder<DB, 'asset'>) => eb.or([eb('owner_identification', 'is', null), eb('created_at', '>=', cutoff)])
}

/** Deletes the unclaimed uploads older than the expiry, with their files; answers how many. */
export async function deleteExpiredUploads(ctx: AppContext): Promise<number> {
  const cutoff = cutoffAt(ctx.clock.now())
  let deleted = 0
  for (;;) {
    const batch = await unclaimed(ctx.db.selectFrom('asset').select('id').where('created_at', '<', cutoff)).orderBy('id').limit(200).execute()
    if (!batch.length) return deleted
    for (const { id } of batch) {
      const row = await unclaimed(ctx.db.deleteFrom('asset').where('id', '=', id).where('created_at', '<', cutoff)).returning('storage_key').executeTakeFirst()
      if (!row) continue // claimed meanwhile, or another process took it
      await deleteObjects(ctx, row.storage_key)
      deleted++
    }
    if (batch.length < 200) return deleted
  }
}

registerPeriodicJob('expire-unclaimed-uploads', EXPIRY_SWEEP_MS, async (ctx) => {
  const n = await deleteExpiredUploads(ctx)
  if (n) ctx.log.info('expired uploads deleted', { count: n })
})
