// Routes of the offline desk (issue 26, docs/checkin-offline.md): desks and their keys, the
// download, the sync, the conflicts, the live stream. All need EVENT.CHECKIN on the event's agency;
// a desk, conflict or registration id of another event is 404.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { fieldError, notFound } from '../../shared/errors'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { conflictsOf, markSeen } from './conflicts'
import { liveResponse } from './live'
import { deskKey, deskOfEvent, desksOf, downloadStream, registerDesk } from './offline'
import { DeskInput, DeskQuery, SyncInput } from './offline-model'
import { sync } from './sync'

const EventParams = z.object({ id: idParam() })
const DeskParams = z.object({ id: idParam(), deskId: idParam() })
const ConflictParams = z.object({ id: idParam(), cid: idParam() })
const tags = ['checkin']

export function offlineCheckinRoutes(ctx: AppContext) {
  const eventOf = async (c: Parameters<typeof requireOrganiser>[1], id: number) => {
    const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
    const event = await eventOfAgency(ctx, actor, id)
    if (event.status === 'DELETED') throw notFound()
    return { actor, event }
  }
  return new Elysia({ name: 'checkin-offline' })
    .post(
      '/proxy/api/events/:id/checkin/desks',
      async (c) => {
        const { actor, event } = await eventOf(c, c.params.id)
        c.set.status = 201
        return registerDesk(ctx, event, actor, c.body.name)
      },
      { params: EventParams, body: DeskInput, detail: { tags, summary: "Register an offline desk: its id and the key for its local copy (bound to this login session)" } },
    )
    .get(
      '/proxy/api/events/:id/checkin/desks',
      async (c) => {
        const { event } = await eventOf(c, c.params.id)
        return { items: await desksOf(ctx.db, event.id) }
      },
      { params: EventParams, detail: { tags, summary: 'The desks registered for the event' } },
    )
    .get(
      '/proxy/api/events/:id/checkin/desks/:deskId/key',
      async (c) => {
        const { actor, event } = await eventOf(c, c.params.id)
        return deskKey(ctx, event, actor, c.params.deskId)
      },
      { params: DeskParams, detail: { tags, summary: "The desk's key again, for the login session that registered it only (401 after logout or revocation)" } },
    )
    .get(
      '/proxy/api/events/:id/checkin/offline',
      async (c) => {
        const { event } = await eventOf(c, c.params.id)
        const deskId = Number(c.query.deskId)
        if (!Number.isSafeInteger(deskId) || deskId <= 0) throw fieldError([{ field: 'deskId', errorType: 'INVALID' }])
        const desk = await deskOfEvent(ctx.db, event.id, deskId)
        return new Response(await downloadStream(ctx, event, desk), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } })
      },
      { params: EventParams, query: DeskQuery, detail: { tags, summary: "Everything an offline desk needs of the event (streamed JSON; no e-mail addresses)" } },
    )
    .post(
      '/proxy/api/events/:id/checkin/sync',
      async (c) => {
        const { actor, event } = await eventOf(c, c.params.id)
        const desk = await deskOfEvent(ctx.db, event.id, c.body.deskId)
        return sync(ctx, event, desk, actor.account.id, c.body)
      },
      { params: EventParams, body: SyncInput, detail: { tags, summary: "A desk's queued check-ins/outs (in order, idempotent per key) and the server's changes since its cursor" } },
    )
    .get(
      '/proxy/api/events/:id/checkin/conflicts',
      async (c) => {
        const { event } = await eventOf(c, c.params.id)
        return conflictsOf(ctx, event)
      },
      { params: EventParams, detail: { tags, summary: 'Persons two desks admitted: both desks and times' } },
    )
    .post(
      '/proxy/api/events/:id/checkin/conflicts/:cid/seen',
      async (c) => {
        const { actor, event } = await eventOf(c, c.params.id)
        return markSeen(ctx, event, c.params.cid, actor.account.id)
      },
      { params: ConflictParams, detail: { tags, summary: 'Mark a conflict as looked at' } },
    )
    .get(
      '/proxy/api/events/:id/checkin/live',
      async (c) => {
        const { event } = await eventOf(c, c.params.id)
        return liveResponse(ctx, event, c.request)
      },
      { params: EventParams, detail: { tags, summary: "Server-sent events: every check-in/out of the event (the changed registrations and the counts)" } },
    )
}
