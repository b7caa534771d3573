// Registration: the public form (page and frame), the organiser's admin mode, the known guest's
// locked basic data, and the field values of a registration.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { bool, fromJson } from '../../db/types'
import { errorBody } from '../../http/errors'
import { requestLanguage } from '../../http/request'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { eventOfAgency } from '../events/service'
import { formDefinitions } from '../forms/service'
import { deleteReservations } from '../reservations/service'
import { currentGuest, guestTokenOf, requireOrganiser } from '../identity/auth'
import { readGenerationsOnce } from '../../db/generation-cache'
import { AdminRegistrationInput, RegistrationInput } from './model'
import { invitationPrefill, lockedBasicData } from './prefill'
import { register } from './service'

const tags = ['registration']
/** Refusals after which the form's timed holds are released (the guest cannot register this way). */
const FINAL_REFUSALS = new Set(['ALREADY_REGISTERED', 'ALREADY_INVITED', 'REGISTRATION_DECLINED', 'EVENT_FULL', 'REGISTRATION_CLOSED', 'REGISTRATION_NOT_OPEN', 'EVENT_EXPIRED'])

export function registrationRoutes(ctx: AppContext) {
  return new Elysia({ name: 'registration' })
    .post(
      '/proxy/api/public/events/:id/registrations',
      async (c) => {
        const guest = await currentGuest(ctx, c).catch(() => null)
        // a public registration or order changes none of the tables behind the cache counters: each is read once
        const r = await readGenerationsOnce(() => register(ctx, c.params.id, c.body, { requestLanguage: requestLanguage(c.request, ctx.license.features), userId: guest?.user.id ?? null, guestToken: guestTokenOf(c.request) })).catch(async (e) => {
          // A refusal the guest cannot fix in the form (already registered, full, closed) gives the
          // timeslots this visit holds back at once instead of blocking them for the hold's 15 minutes.
          if (e instanceof AppError && FINAL_REFUSALS.has(e.errorType) && c.body.identification) {
            await deleteReservations(ctx, { deleteAllTimed: true, identification: c.body.identification }).catch(() => undefined)
          }
          throw e
        })
        c.set.status = 201
        return { visitorId: r.visitor.id, status: r.status, visitorCount: r.visitor.visitor_count, email: r.visitor.email, ...(r.ticketOrderId ? { ticketOrderId: r.ticketOrderId } : {}) }
      },
      {
        params: z.object({ id: idParam() }),
        body: RegistrationInput,
        detail: { tags, summary: 'Register for an event from its public page or frame (FIELD_ERROR lists missing fields; WAITING_LIST when full and the event keeps one)' },
      },
    )
    .post(
      '/proxy/api/events/:id/registrations',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        await eventOfAgency(ctx, actor, c.params.id)
        const lang = requestLanguage(c.request, ctx.license.features)
        const r = await register(ctx, c.params.id, c.body, { requestLanguage: lang, admin: actor })
        const saved = { visitorId: r.visitor.id, status: r.status, visitorStatus: r.status, visitorCount: r.visitor.visitor_count, email: r.visitor.email }
        if (!r.warnings.length) {
          c.set.status = 201
          return saved
        }
        // Saved, but incomplete: the spec's FIELD_ERROR_WARN_BUT_SAVED with the missing fields
        // (status is the HTTP status there; the registration's status is visitorStatus).
        c.set.status = 202
        return {
          ...saved,
          ...errorBody(202, 'FIELD_ERROR_WARN_BUT_SAVED', lang, { fields: r.warnings.map((p) => ({ field: p.field, errorType: p.errorType })) }),
          missingFields: r.warnings.map((p) => ({ id: p.fieldId, field: p.field, displayName: p.displayName, errorType: p.errorType })),
        }
      },
      {
        params: z.object({ id: idParam() }),
        body: AdminRegistrationInput,
        detail: { tags, summary: 'Admin mode: an organiser registers a guest through the form (no reservations; 202 FIELD_ERROR_WARN_BUT_SAVED when saved incomplete)' },
      },
    )
    .get(
      '/proxy/api/public/events/:id/prefill',
      async (c) => {
        const e = await findEvent(ctx.db, c.params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        const guest = await currentGuest(ctx, c).catch(() => null)
        if (!guest) return { values: {}, locked: [] }
        const defs = await formDefinitions(ctx.db, e)
        const r = await lockedBasicData(ctx.db, e, defs, guest.user.id)
        const own = bool(e.lock_basic_data) ? r : { values: r.values, locked: [] }
        // an invited guest confirms through the form: what the organiser knows, under the account's
        // locked data (lockBasicData); the e-mail stays the invitation's
        const inv = await invitationPrefill(ctx.db, e, defs, guest.user.id)
        if (!inv) return own
        const clean = Object.fromEntries(Object.entries(inv.values).filter(([, x]) => x !== undefined))
        return {
          values: bool(e.lock_basic_data)
            ? { ...clean, ...own.values, fields: { ...inv.values.fields, ...((own.values.fields as Record<string, unknown>) ?? {}) } }
            : { ...own.values, ...clean, fields: { ...((own.values.fields as Record<string, unknown>) ?? {}), ...inv.values.fields } },
          locked: [...new Set([...own.locked, 'email'])],
          invitation: { visitorId: inv.visitorId, status: inv.status },
        }
      },
      { params: z.object({ id: idParam() }), detail: { tags, summary: 'Basic data of the known guest for the form; locked keys when the event has lockBasicData' } },
    )
    .get(
      '/proxy/api/events/:id/visitors/:vid/fields',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const v = await ctx.db.selectFrom('event_visitor').select('id').where('id', '=', c.params.vid).where('event_id', '=', event.id).executeTakeFirst()
        if (!v) throw notFound()
        return visitorFields(ctx, [v.id])
      },
      { params: z.object({ id: idParam(), vid: idParam() }), detail: { tags, summary: 'The event-specific field values of a registration (visitorFields)' } },
    )
}

/** visitorFields of the spec for registrations: eventField, data, assetData, addressData, selectedValues. */
export async function visitorFields(ctx: AppContext, visitorIds: number[]) {
  if (!visitorIds.length) return []
  const rows = await ctx.db.selectFrom('visitor_field_value').selectAll().where('visitor_id', 'in', visitorIds).orderBy('visitor_id').orderBy('field_id').execute()
  return rows.map((r) => {
    const value = fromJson<any>(r.value, null)
    return {
      visitorId: r.visitor_id,
      eventField: r.field_id,
      data: r.data,
      value,
      assetData: r.asset_id ? { id: r.asset_id, fileName: value?.fileName ?? null, defaultImagePath: `/proxy/api/asset/${r.asset_id}?dimension=Regular_400` } : null,
      addressData: value && typeof value === 'object' && 'postCode' in value ? value : null,
      selectedValues: Array.isArray(value) ? value.map((s: any) => ({ fieldValueId: s.fieldValueId ?? null, timeslotId: s.timeslotId ?? null, amount: s.amount })) : null,
    }
  })
}
