// Invitations by mail to a filtered list (a background task, kind guest-invitations). Each guest is
// its own transaction (status, places, access token, outbox mail), so a full event or a guest without
// e-mail fails that guest alone and is counted, never half-done.
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import type { AccountActor } from '../identity/auth'
import { checkpointOf, enqueueTask, registerTaskHandler, saveCheckpoint } from '../tasks/runner'
import { eventOfAgency } from '../events/service'
import type { GuestFilter } from './model'
import { visitorQuery } from './repository'
import { applyAction } from './service'
import { ACTION_FROM } from './transitions'

export const INVITATION_TASK = 'guest-invitations'

export interface InvitationPayload {
  eventId: number
  filter: GuestFilter
  search?: string
  visitorIds?: number[]
  reservePlace: boolean
}

function targets(ctx: AppContext, p: InvitationPayload) {
  let q = visitorQuery(ctx.db, p.eventId, p.filter, p.search)
  if (p.visitorIds?.length) q = q.where('v.id', 'in', p.visitorIds)
  return q
}

export async function startInvitations(ctx: AppContext, actor: AccountActor, eventId: number, input: Omit<InvitationPayload, 'eventId'>) {
  const event = await eventOfAgency(ctx, actor, eventId)
  if (event.status !== 'OK') throw new AppError(404, 'NOT_FOUND')
  const payload: InvitationPayload = { ...input, eventId }
  const total = Number((await targets(ctx, payload).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0)
  if (!total) throw new AppError(409, 'NO_GUESTS_TO_INVITE')
  const task = await enqueueTask(ctx.clock, ctx.db, { kind: INVITATION_TASK, agencyId: event.agency_id, accountId: actor.account.id, total, payload })
  ctx.notifyTasks()
  return task
}

/**
 * Each guest's transaction also records the checkpoint (the last guest invited, the counts): a task
 * taken again after a crash continues after it and mails nobody twice.
 */
interface InvitationCheckpoint {
  lastId: number
  sent: number
  failed: number
  reasons: Record<string, number>
}

registerTaskHandler(INVITATION_TASK, async (ctx, task, payload, progress) => {
  const p = payload as InvitationPayload
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', p.eventId).executeTakeFirstOrThrow()
  const cp = checkpointOf<InvitationCheckpoint>(task)
  let lastId = cp?.lastId ?? 0
  let sent = cp?.sent ?? 0
  let failed = cp?.failed ?? 0
  let done = sent + failed
  const reasons: Record<string, number> = { ...cp?.reasons }
  for (;;) {
    const page = await targets(ctx, p).selectAll('v').where('v.id', '>', lastId).orderBy('v.id').limit(200).execute()
    if (!page.length) break
    lastId = page[page.length - 1].id
    for (const v of page) {
      done++
      try {
        if (!ACTION_FROM.invite.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED')
        await ctx.db.transaction().execute(async (trx) => {
          await applyAction(ctx, trx, event, v, 'invite', { reservePlace: p.reservePlace })
          await saveCheckpoint(trx, task.id, { lastId: v.id, sent: sent + 1, failed, reasons } satisfies InvitationCheckpoint)
        })
        sent++
      } catch (e) {
        failed++
        const code = e instanceof AppError ? e.errorType : 'INTERNAL_ERROR'
        reasons[code] = (reasons[code] ?? 0) + 1
      }
    }
    ctx.notifyMail()
    await progress.update({ current: done, errors: failed }, true)
  }
  return { state: `INVITED:${sent}:${failed}`, result: { sent, failed, reasons } }
})
