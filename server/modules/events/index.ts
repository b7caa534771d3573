import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { requestLanguage } from '../../http/request'
import { t } from '../../i18n/catalogue'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { labelsOfEvents } from '../tags/service'
import { eventDto, publicEventDto } from './dto'
import type { EventRow } from './events.table'
import { embedCode } from './embed'
import { sanitizeRichText } from './rich-text'
import { EmbedQuery, EventCopyInput, EventInput, EventSearch } from './model'
import { findEvent, listAgencyEvents, searchEvents, statusesOf } from './repository'
import { assertPresetFeature, copyEvent, createEvent, deleteEvent, eventOfAgency, eventReadable, restoreEvent, setArchived, updateEvent } from './service'
import { STATUS_CATALOGUE } from './status-catalogue'
import { EventTranslationInput, eventTranslations, publicEventTranslations, saveEventTranslation } from './translations'

const IdParams = z.object({ id: idParam() })
const LanguageParams = z.object({ id: idParam(), language: z.string().min(1).max(10) })

export function eventRoutes(ctx: AppContext) {
  const full = async (e: EventRow) => eventDto(ctx, e, (await labelsOfEvents(ctx.db, [e.id])).get(e.id))
  return new Elysia({ name: 'events' })
    .get(
      '/proxy/api/events',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        const rows = await listAgencyEvents(ctx.db, actor.account.agency_id)
        return rows.map((e) => eventDto(ctx, e))
      },
      { detail: { tags: ['events'], summary: 'Active events of the current agency (newest first, at most 500)' } },
    )
    .post(
      '/proxy/api/events/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        for (const s of statusesOf(c.body.filter)) assertPresetFeature(ctx, s)
        const { rows, total } = await searchEvents(ctx.db, actor.account.agency_id, c.body, ctx.clock.now())
        const labels = await labelsOfEvents(
          ctx.db,
          rows.map((r) => r.id),
        )
        return { items: rows.map((e) => eventDto(ctx, e, labels.get(e.id))), total, page: c.body.page, perPage: c.body.perPage }
      },
      { body: EventSearch, detail: { tags: ['events'], summary: 'Search events with the event filter (agency-side.md 3)' } },
    )
    .get(
      '/proxy/api/events/autoCompleteList',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        const rows = await ctx.db
          .selectFrom('event')
          .select(['id', 'display_name', 'start_date'])
          .where('agency_id', '=', actor.account.agency_id)
          .where('status', '=', 'OK')
          .orderBy('start_date', 'desc')
          .limit(1000)
          .execute()
        return rows.map((r) => ({ id: r.id, displayName: r.display_name, startDate: r.start_date }))
      },
      { detail: { tags: ['events'], summary: 'Events for the event picker (displayName)' } },
    )
    .post(
      '/proxy/api/events',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CREATE')
        c.set.status = 201
        return full(await createEvent(ctx, actor, c.body))
      },
      { body: EventInput, detail: { tags: ['events'], summary: 'Create an event' } },
    )
    .get(
      '/proxy/api/events/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return full(await eventReadable(ctx, actor, c.params.id))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'One event' } },
    )
    .put(
      '/proxy/api/events/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return full(await updateEvent(ctx, actor, c.params.id, c.body))
      },
      { params: IdParams, body: EventInput, detail: { tags: ['events'], summary: "Replace an event's settings" } },
    )
    .post(
      '/proxy/api/events/:id/copy',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CREATE')
        c.set.status = 201
        return full(await copyEvent(ctx, actor, c.params.id, c.body))
      },
      { params: IdParams, body: EventCopyInput, detail: { tags: ['events'], summary: 'Copy an event (or save it as a preset, EVENT_PRESET); guests are not copied' } },
    )
    .post(
      '/proxy/api/events/:id/archive',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return full(await setArchived(ctx, actor, c.params.id, true))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'Archive an event' } },
    )
    .post(
      '/proxy/api/events/:id/unarchive',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return full(await setArchived(ctx, actor, c.params.id, false))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'Take an event out of the archive' } },
    )
    .delete(
      '/proxy/api/events/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.DELETE')
        return full(await deleteEvent(ctx, actor, c.params.id))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'Delete an event (status DELETED; guests are kept)' } },
    )
    .post(
      '/proxy/api/events/:id/restore',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.DELETE')
        return full(await restoreEvent(ctx, actor, c.params.id))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'Restore a deleted event' } },
    )
    .get(
      '/proxy/api/events/:id/translations',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return eventTranslations(ctx, await eventOfAgency(ctx, actor, c.params.id))
      },
      { params: IdParams, detail: { tags: ['events'], summary: "The event's texts in German and the organiser's translation per language the licence offers" } },
    )
    .put(
      '/proxy/api/events/:id/translations/:language',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return saveEventTranslation(ctx, await eventOfAgency(ctx, actor, c.params.id), c.params.language, c.body)
      },
      { params: LanguageParams, body: EventTranslationInput, detail: { tags: ['events'], summary: "Save the event's name, subtitle, description and location name in one language (empty fields read German)" } },
    )
    .get(
      '/proxy/api/events/:id/embed',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        const base = ctx.config.baseUrl
        const params = new URLSearchParams()
        if (c.query.hideCookieinfo) params.set('hideCookieinfo', 'true')
        if (c.query.scrollId) params.set('scrollId', c.query.scrollId)
        const qs = params.toString()
        const frameUrl = `${base}/public/event/${e.id}/frame${qs ? `?${qs}` : ''}`
        return {
          publicUrl: `${base}/public/event/${e.id}`,
          frameUrl,
          height: c.query.height,
          iframeCode: embedCode({ eventId: e.id, frameUrl, origin: new URL(base).origin, title: e.display_name, height: c.query.height }),
        }
      },
      { params: IdParams, query: EmbedQuery, detail: { tags: ['events'], summary: 'Links and iframe code to embed the registration form (EVENT.GUEST.MANAGE)' } },
    )
    .get(
      '/proxy/api/static/status',
      ({ request }) => {
        const lang = requestLanguage(request, ctx.license.features)
        const out: Record<string, Array<{ status: string; displayName: string; cssClass: string }>> = {}
        for (const [entity, list] of Object.entries(STATUS_CATALOGUE)) {
          out[entity] = list.map(([status, cssClass]) => ({ status, displayName: t(lang, `status.${entity}.${status}`), cssClass }))
        }
        return out
      },
      { detail: { tags: ['events'], summary: 'Valid statuses per entity with displayName and cssClass' } },
    )
    .get(
      '/proxy/api/public/events/:id',
      async ({ params }) => {
        const e = await findEvent(ctx.db, params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        const agency = await ctx.db
          .selectFrom('agency')
          .select(['id', 'display_name', 'logo_asset_id', 'contact_guest', 'contact_guest_phone', 'contact_guest_mail', 'imprint_text', 'imprint_url', 'privacy_text', 'privacy_url'])
          .where('id', '=', e.agency_id)
          .executeTakeFirst()
        const contact = agency && (agency.contact_guest || agency.contact_guest_phone || agency.contact_guest_mail) ? { name: agency.contact_guest, phone: agency.contact_guest_phone, mail: agency.contact_guest_mail } : null
        // the page shows the description as HTML: sanitised again on the way out (rows written
        // before the sanitiser, or by an import, are never trusted)
        // the agency's imprint and privacy notice (help module settings): an address, else the text
        const legal = agency
          ? { imprintUrl: agency.imprint_url, imprintText: agency.imprint_url ? null : sanitizeRichText(agency.imprint_text), privacyUrl: agency.privacy_url, privacyText: agency.privacy_url ? null : sanitizeRichText(agency.privacy_text) }
          : null
        // the organiser's translations ride along: the page's first request does not know the guest's language (ui/apps/public/early.ts)
        return { ...publicEventDto(ctx, e, agency ?? null), description: sanitizeRichText(e.description), contact, legal, translations: await publicEventTranslations(ctx, e.id) }
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'The public page data of an event' } },
    )
}
