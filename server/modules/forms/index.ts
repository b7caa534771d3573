// Form builder API (organiser) and the public form definition of an event.
import { Elysia } from 'elysia'
import { effectiveAgreements } from '../agreements/repository'
import { publicAgreementTranslations } from '../agreements/translations'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { audit, changesOf } from '../audit/service'
import type { AccountActor } from '../identity/auth'
import type { EventRow } from '../events/events.table'
import { bool } from '../../db/types'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { onEventCopied } from '../events/hooks'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { FieldInput, FieldOrderInput, FormSettingsInput } from './model'
import { copyEventForm } from './copy'
import { builderFields, createField, deleteField, formDefinitions, isPaidEvent, liveDefinitions, reorderFields, updateField, updateFormSettings } from './service'

// A copied event (or one made from a preset) starts with the same registration form, places empty.
onEventCopied.push((ctx, trx, from, to) => copyEventForm(trx, from.id, to.id, ctx.clock.now()))

const EventParams = z.object({ id: idParam() })
const FieldParams = z.object({ id: idParam(), fieldId: idParam() })
const tags = ['forms']

export function formRoutes(ctx: AppContext) {
  return new Elysia({ name: 'forms' })
    .get(
      '/proxy/api/events/:id/fields',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return builderFields(ctx, await eventOfAgency(ctx, actor, c.params.id))
      },
      { params: EventParams, detail: { tags, summary: 'The registration form of an event: fields in order, with defined values and timeslots' } },
    )
    .post(
      '/proxy/api/events/:id/fields',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        c.set.status = 201
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const field = await createField(ctx, event, c.body)
        await auditForm(ctx, actor, event, 'create', field.id, null, field)
        return field
      },
      { params: EventParams, body: FieldInput, detail: { tags, summary: 'Add a field to the end of the form' } },
    )
    .put(
      '/proxy/api/events/:id/fields/order',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const fields = await reorderFields(ctx, event, c.body.ids)
        await auditForm(ctx, actor, event, 'reorder', null, null, null, { order: c.body.ids })
        return { fields }
      },
      { params: EventParams, body: FieldOrderInput, detail: { tags, summary: 'Put the form\'s fields in this order (every field id once)' } },
    )
    .put(
      '/proxy/api/events/:id/fields/:fieldId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const before = (await formDefinitions(ctx.db, event)).find((f) => f.id === c.params.fieldId) ?? null
        const field = await updateField(ctx, event, c.params.fieldId, c.body)
        await auditForm(ctx, actor, event, 'update', field.id, before, field)
        return field
      },
      { params: FieldParams, body: FieldInput, detail: { tags, summary: 'Replace a field (its defined values and timeslots are matched by id)' } },
    )
    .delete(
      '/proxy/api/events/:id/fields/:fieldId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const before = (await formDefinitions(ctx.db, event)).find((f) => f.id === c.params.fieldId) ?? null
        await deleteField(ctx, event, c.params.fieldId)
        await auditForm(ctx, actor, event, 'delete', c.params.fieldId, before, null)
        return { deleted: true }
      },
      { params: FieldParams, detail: { tags, summary: 'Remove a field (not the default form\'s, not while guests hold its places)' } },
    )
    .put(
      '/proxy/api/events/:id/form-settings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const saved = await updateFormSettings(ctx, event, c.body)
        await auditForm(ctx, actor, event, 'settings', null, null, null, { ...c.body })
        return saved
      },
      { params: EventParams, body: FormSettingsInput, detail: { tags, summary: 'Registration settings of the form: waiting list when full' } },
    )
    .get(
      '/proxy/api/public/events/:id/form',
      async ({ params }) => {
        const e = await findEvent(ctx.db, params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        return {
          formVersion: e.form_version,
          waitingList: bool(e.waiting_list),
          isPayedEvent: isPaidEvent(e),
          systemCovidoo: ctx.license.features.includes('SYSTEM_COVIDOO'),
          fields: await liveDefinitions(ctx.db, e),
          // what registering asks the guest to agree to (issue 10, item 3): text as shown, version
          // with the organiser's translations per language (the page picks the guest's; its first request does not know it)
          agreements: await (async () => {
            const list = await effectiveAgreements(ctx.db, e)
            const translations = await publicAgreementTranslations(ctx, list.map((a) => a.id))
            return list.map((a) => ({ id: a.id, displayName: a.display_name, description: a.description, appearance: a.appearance, version: a.version, ...(translations.has(a.id) ? { translations: translations.get(a.id) } : {}) }))
          })(),
        }
      },
      { params: EventParams, detail: { tags, summary: 'The registration form of a public event with free places per defined value and timeslot' } },
    )
}

/** a form change for the audit log: the field's properties before and after (create: after only) */
function auditForm(ctx: AppContext, actor: AccountActor, event: EventRow, op: string, fieldId: number | null, before: object | null, after: object | null, extra: Record<string, unknown> = {}) {
  const name = ((after ?? before) as { displayName?: string } | null)?.displayName ?? null
  return audit(ctx, ctx.db, {
    agencyId: event.agency_id,
    actor,
    action: 'form.change',
    entityType: 'field',
    entityId: fieldId,
    eventId: event.id,
    changes: changesOf((before ?? {}) as Record<string, unknown>, (after ?? {}) as Record<string, unknown>, ['displayName', 'type', 'appearance', 'defaultField', 'conditions', 'values', 'timeslots', 'maxPerGuest', 'description']),
    detail: { op, ...(name ? { field: name } : {}), ...extra },
  })
}
