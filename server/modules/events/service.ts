import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { notFound } from '../../shared/errors'
import type { AccountActor } from '../identity/auth'
import { assertWithinLimit } from '../limits/service'
import type { EventRow } from './events.table'
import type { EventInput } from './model'
import { findEvent } from './repository'

export function eventColumns(input: EventInput) {
  return {
    display_name: input.displayName,
    sub_title: input.subTitle,
    description: input.description,
    start_date: new Date(input.startDate).toISOString(),
    end_date: new Date(input.endDate).toISOString(),
    timezone: input.timezone,
    event_type: input.eventType,
    visibility: input.visibility,
    location_name: input.locationName,
    street: input.street,
    street_number: input.streetNumber,
    post_code: input.postCode,
    city: input.city,
    country: input.country,
    meeting_url: input.meetingUrl,
    max_visitors: input.maxVisitors,
    max_visitor_per_subscription: input.maxVisitorPerSubscription,
    use_date: input.useDate,
    registration_from: input.registrationFrom ? new Date(input.registrationFrom).toISOString() : null,
    registration_until: input.registrationUntil ? new Date(input.registrationUntil).toISOString() : null,
    require_approval: input.requireApproval,
  }
}

export async function createEvent(ctx: AppContext, actor: AccountActor, input: EventInput): Promise<EventRow> {
  return ctx.db.transaction().execute(async (trx) => {
    await assertWithinLimit(ctx, trx, actor.account.agency_id, 'events')
    return trx
      .insertInto('event')
      .values({ ...eventColumns(input), agency_id: actor.account.agency_id, created_by_account_id: actor.account.id })
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

/** The event, if it belongs to the actor's agency; otherwise NOT_FOUND (never reveal other agencies' ids). */
export async function eventOfAgency(ctx: AppContext, actor: AccountActor, eventId: number): Promise<EventRow> {
  const e = await findEvent(ctx.db, eventId)
  if (!e || e.agency_id !== actor.account.agency_id) throw notFound()
  return e
}

export async function updateEvent(ctx: AppContext, actor: AccountActor, eventId: number, input: EventInput): Promise<EventRow> {
  await eventOfAgency(ctx, actor, eventId)
  return ctx.db
    .updateTable('event')
    .set({ ...eventColumns(input), updated_at: isoNow(ctx.clock.now()) })
    .where('id', '=', eventId)
    .returningAll()
    .executeTakeFirstOrThrow()
}
