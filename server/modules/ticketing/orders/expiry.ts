// Orders whose hold time passed give their tickets back (docs/ticketing.md, "Hold time"). Each
// order has a task at its hold_until (orders/create.ts); a renewed hold schedules a new one. Safe
// to run twice and on two processes: the status flip is conditional, and releaseOrder gives back
// only once.
import type { AppContext } from '../../../context'
import { isoNow } from '../../../db/types'
import { enqueueTask, registerTaskHandler } from '../../tasks/runner'
import { EXPIRE_TASK, addHistory } from './create'
import { enqueueOrderMail } from './mails'
import { releaseOrder } from './release'
import { STEP } from './steps'

/** Expires the order if it is still open before confirmation and its hold passed; true if it did. */
export async function expireOrder(ctx: AppContext, orderId: number): Promise<boolean> {
  const now = ctx.clock.now()
  const at = isoNow(now)
  const done = await ctx.db.transaction().execute(async (trx) => {
    const order = await trx
      .updateTable('ticket_order')
      .set({ status: 'CANCELED', step: STEP.EXPIRED, updated_at: at })
      .where('id', '=', orderId)
      .where('status', '=', 'OPEN')
      .where('step', '<', STEP.EXTERNAL_SITE)
      .where('hold_until', '<=', at)
      .returningAll()
      .executeTakeFirst()
    if (!order) return false
    await releaseOrder(trx, order, at)
    await addHistory(trx, order.id, at, 'EXPIRED', null)
    await enqueueOrderMail(ctx, trx, order, 'expired')
    return true
  })
  if (done) ctx.notifyMail()
  else {
    // a renewed hold: look again when it runs out
    const o = await ctx.db.selectFrom('ticket_order').select(['status', 'step', 'hold_until', 'agency_id']).where('id', '=', orderId).executeTakeFirst()
    if (o && o.status === 'OPEN' && o.step < STEP.EXTERNAL_SITE && o.hold_until && o.hold_until > at) {
      await enqueueTask(ctx.clock, ctx.db, { kind: EXPIRE_TASK, agencyId: o.agency_id, payload: { orderId }, runAfter: new Date(o.hold_until) })
    }
  }
  return done
}

registerTaskHandler(EXPIRE_TASK, async (ctx, _task, payload: { orderId: number }) => {
  const expired = await expireOrder(ctx, payload.orderId)
  return { state: expired ? 'EXPIRED' : 'KEPT' }
}, { lane: 'QUICK' })
