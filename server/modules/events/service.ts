import type { AppContext } from '../../context'
import { audit, changesOf } from '../audit/service'
import type { Db } from '../../db/database'
import { isoNow, toJson } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { AccountActor } from '../identity/auth'
import { hasFeature } from '../license/license'
import { assertWithinLimit } from '../limits/service'
import { assertLabelsOfAgency, setEventLabels } from '../tags/service'
import { calendarChanged } from './calendar-sequence'
import type { EventRow } from './events.table'
import { onEventCopied, onEventUpdating } from './hooks'
import type { EventCopyInput, EventInput } from './model'
import { findEvent } from './repository'
import { sanitizeRichText } from './rich-text'

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null)

export function eventColumns(input: EventInput) {
  return {
    display_name: input.displayName,
    sub_title: input.subTitle,
    description: sanitizeRichText(input.description),
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
    primary_color: input.primaryColor,
    accent_color: input.accentColor,
    image_asset_id: input.imageAssetId,
    max_visitors: input.maxVisitors,
    max_visitor_per_subscription: input.maxVisitorPerSubscription,
    use_date: input.useDate,
    registration_from: iso(input.registrationFrom),
    registration_until: iso(input.registrationUntil),
    require_approval: input.requireApproval,
    hide_decline_button: input.hideDeclineButton,
    use_reporting: input.useReporting,
    disabled_covid_states: toJson(input.disabledCovidStates),
    currency: input.currency,
    registration_button_type: input.registrationButtonType,
    external_confirmation_link: input.externalConfirmationLink,
    external_confirmation_label: input.externalConfirmationLabel,
    default_phone_locale: input.defaultPhoneLocale,
    lock_basic_data: input.lockBasicData,
    allow_self_checkin: input.allowSelfCheckin,
    allow_self_checkout: input.allowSelfCheckout,
    checkin_open_date: iso(input.checkinOpenDate),
    checkin_target: input.checkinTarget,
    checkin_url: input.checkinUrl,
    options: toJson([...new Set(input.options)]),
    allow_transfer: input.allowTransfer,
    transfer_until: iso(input.transferUntil),
  }
}

/** The event image must be an upload of the same agency (uploads module's asset table). */
async function assertImageOfAgency(db: Db, agencyId: number, assetId: number | null) {
  if (assetId == null) return
  const a = await db.selectFrom('asset').select('agency_id').where('id', '=', assetId).executeTakeFirst()
  if (!a || a.agency_id !== agencyId) throw fieldError([{ field: 'imageAssetId', errorType: 'INVALID' }])
}

/** Presets need the license feature EVENT_PRESET (agency-side.md 2.7). */
export function assertPresetFeature(ctx: AppContext, status: string) {
  if ((status === 'PRESET' || status === 'GLOBAL_PRESET') && !hasFeature(ctx.license, 'EVENT_PRESET')) throw new AppError(403, 'WRONG_ABO')
}

export async function createEvent(ctx: AppContext, actor: AccountActor, input: EventInput): Promise<EventRow> {
  const agencyId = actor.account.agency_id
  const event = await ctx.db.transaction().execute(async (trx) => {
    await assertWithinLimit(ctx, trx, agencyId, 'events')
    await assertImageOfAgency(trx, agencyId, input.imageAssetId)
    const tags = await assertLabelsOfAgency(trx, 'tag', agencyId, input.tags, 'tags')
    const campaigns = await assertLabelsOfAgency(trx, 'campaign', agencyId, input.campaigns, 'campaigns')
    const now = isoNow(ctx.clock.now())
    const e = await trx
      .insertInto('event')
      .values({ ...eventColumns(input), agency_id: agencyId, created_by_account_id: actor.account.id, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
    await setEventLabels(trx, e.id, tags, campaigns)
    await audit(ctx, trx, { agencyId, actor, action: 'event.create', entityType: 'event', entityId: e.id, eventId: e.id, changes: changesOf({}, e, AUDITED_EVENT_FIELDS) })
    return e
  })
  return event
}

/** what an event's audit entry compares (the counters and bookkeeping columns change by themselves) */
const AUDITED_EVENT_FIELDS = ['display_name', 'start_date', 'end_date', 'timezone', 'location_name', 'max_visitors', 'visibility', 'status', 'archived', 'registration_state', 'description', 'image_asset_id']

/** The event, if it belongs to the actor's agency; otherwise NOT_FOUND (never reveal other agencies' ids). */
export async function eventOfAgency(ctx: AppContext, actor: AccountActor, eventId: number, db: Db = ctx.db): Promise<EventRow> {
  const e = await findEvent(db, eventId)
  if (!e || e.agency_id !== actor.account.agency_id) throw notFound()
  return e
}

/** Like eventOfAgency, but global presets of other agencies may be read (and copied). */
export async function eventReadable(ctx: AppContext, actor: AccountActor, eventId: number): Promise<EventRow> {
  const e = await findEvent(ctx.db, eventId)
  if (!e) throw notFound()
  if (e.agency_id === actor.account.agency_id) return e
  if (e.status === 'GLOBAL_PRESET' && hasFeature(ctx.license, 'EVENT_PRESET')) return e
  throw notFound()
}

export async function updateEvent(ctx: AppContext, actor: AccountActor, eventId: number, input: EventInput): Promise<EventRow> {
  const agencyId = actor.account.agency_id
  return ctx.db.transaction().execute(async (trx) => {
    const current = await eventOfAgency(ctx, actor, eventId, trx)
    if (current.status === 'DELETED') throw notFound()
    await assertImageOfAgency(trx, agencyId, input.imageAssetId)
    const tags = await assertLabelsOfAgency(trx, 'tag', agencyId, input.tags, 'tags')
    const campaigns = await assertLabelsOfAgency(trx, 'campaign', agencyId, input.campaigns, 'campaigns')
    // Capacity may shrink only down to the places already taken: checked in the UPDATE itself so a
    // registration committing meanwhile cannot slip under it.
    const columns = eventColumns(input)
    for (const hook of onEventUpdating) await hook(ctx, trx, current, { currency: columns.currency, visibility: columns.visibility })
    const r = await trx
      .updateTable('event')
      .set((eb) => ({
        ...columns,
        updated_at: isoNow(ctx.clock.now()),
        ...(calendarChanged(current, { ...current, ...columns }) ? { calendar_sequence: eb('calendar_sequence', '+', 1) } : {}),
      }))
      .where('id', '=', eventId)
      .where((eb) => (input.maxVisitors == null ? eb.val(true) : eb('seats_taken', '<=', input.maxVisitors)))
      .returningAll()
      .executeTakeFirst()
    if (!r) {
      const taken = (await findEvent(trx, eventId))?.seats_taken ?? 0
      throw new AppError(409, 'CAPACITY_BELOW_TAKEN', { params: { taken }, fields: [{ field: 'maxVisitors', errorType: 'CAPACITY_BELOW_TAKEN' }] })
    }
    await setEventLabels(trx, eventId, tags, campaigns)
    const changes = changesOf(current, r, Object.keys(columns))
    if (changes) await audit(ctx, trx, { agencyId, actor, action: 'event.update', entityType: 'event', entityId: eventId, eventId, changes })
    return r
  })
}

export async function copyEvent(ctx: AppContext, actor: AccountActor, eventId: number, input: EventCopyInput): Promise<EventRow> {
  assertPresetFeature(ctx, input.status)
  const source = await eventReadable(ctx, actor, eventId)
  if (source.status === 'DELETED') throw notFound()
  assertPresetFeature(ctx, source.status)
  const agencyId = actor.account.agency_id
  const sameAgency = source.agency_id === agencyId
  return ctx.db.transaction().execute(async (trx) => {
    // presets are not events (README, editions): only a real event counts against the limit
    if (input.status === 'OK') await assertWithinLimit(ctx, trx, agencyId, 'events')
    const { id: _id, created_at: _c, updated_at: _u, seats_taken: _s, ...rest } = source
    const now = isoNow(ctx.clock.now())
    const copy = await trx
      .insertInto('event')
      .values({
        ...rest,
        agency_id: agencyId,
        status: input.status,
        archived: false,
        // a copy of a real event starts offline (not reachable, nobody registers) until the organiser
        // has checked its dates and publishes it; presets and events made from a preset keep theirs
        ...(input.status === 'OK' && source.status === 'OK' ? { visibility: 'OFFLINE' } : {}),
        display_name: input.displayName ?? source.display_name,
        seats_taken: 0,
        created_by_account_id: actor.account.id,
        created_at: now,
        updated_at: now,
      } as any)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (sameAgency) {
      // Tags and campaigns belong to an agency: a global preset of another agency comes without them.
      const tags = await trx.selectFrom('event_tag').select('tag_id').where('event_id', '=', source.id).execute()
      const campaigns = await trx.selectFrom('event_campaign').select('campaign_id').where('event_id', '=', source.id).execute()
      await setEventLabels(
        trx,
        copy.id,
        tags.map((t) => t.tag_id),
        campaigns.map((c) => c.campaign_id),
      )
    }
    for (const hook of onEventCopied) await hook(ctx, trx, { id: source.id, agencyId: source.agency_id }, { id: copy.id, agencyId })
    await audit(ctx, trx, { agencyId, actor, action: 'event.copy', entityType: 'event', entityId: copy.id, eventId: copy.id, detail: { from: source.id, status: input.status } })
    return copy
  })
}

export async function setArchived(ctx: AppContext, actor: AccountActor, eventId: number, archived: boolean): Promise<EventRow> {
  const e = await eventOfAgency(ctx, actor, eventId)
  if (e.status === 'DELETED') throw notFound()
  return ctx.db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('event').set({ archived, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', eventId).returningAll().executeTakeFirstOrThrow()
    await audit(ctx, trx, { agencyId: e.agency_id, actor, action: archived ? 'event.archive' : 'event.unarchive', entityType: 'event', entityId: eventId, eventId })
    return r
  })
}

/** Soft delete: guests and statistics stay, the public page answers 404. */
export async function deleteEvent(ctx: AppContext, actor: AccountActor, eventId: number): Promise<EventRow> {
  const e = await eventOfAgency(ctx, actor, eventId)
  if (e.status === 'DELETED') throw notFound()
  return ctx.db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('event').set({ status: 'DELETED', updated_at: isoNow(ctx.clock.now()) }).where('id', '=', eventId).returningAll().executeTakeFirstOrThrow()
    await audit(ctx, trx, { agencyId: e.agency_id, actor, action: 'event.delete', entityType: 'event', entityId: eventId, eventId, changes: { status: [e.status, 'DELETED'] } })
    return r
  })
}

export async function restoreEvent(ctx: AppContext, actor: AccountActor, eventId: number): Promise<EventRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const e = await eventOfAgency(ctx, actor, eventId, trx)
    if (e.status !== 'DELETED') throw new AppError(409, 'EVENT_NOT_DELETED')
    await assertWithinLimit(ctx, trx, actor.account.agency_id, 'events')
    const r = await trx.updateTable('event').set({ status: 'OK', updated_at: isoNow(ctx.clock.now()) }).where('id', '=', eventId).returningAll().executeTakeFirstOrThrow()
    await audit(ctx, trx, { agencyId: e.agency_id, actor, action: 'event.restore', entityType: 'event', entityId: eventId, eventId, changes: { status: ['DELETED', 'OK'] } })
    return r
  })
}
