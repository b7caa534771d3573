// Form builder API (organiser) and the public form definition of an event.
import { Elysia } from 'elysia'
import { effectiveAgreements } from '../agreements/repository'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { onEventCopied } from '../events/hooks'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { FieldInput, FieldOrderInput, FormSettingsInput } from './model'
import { copyEventForm } from './copy'
import { builderFields, createField, deleteField, isPaidEvent, liveDefinitions, reorderFields, updateField, updateFormSettings } from './service'

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
        return createField(ctx, await eventOfAgency(ctx, actor, c.params.id), c.body)
      },
      { params: EventParams, body: FieldInput, detail: { tags, summary: 'Add a field to the end of the form' } },
    )
    .put(
      '/proxy/api/events/:id/fields/order',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return { fields: await reorderFields(ctx, await eventOfAgency(ctx, actor, c.params.id), c.body.ids) }
      },
      { params: EventParams, body: FieldOrderInput, detail: { tags, summary: 'Put the form\'s fields in this order (every field id once)' } },
    )
    .put(
      '/proxy/api/events/:id/fields/:fieldId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return updateField(ctx, await eventOfAgency(ctx, actor, c.params.id), c.params.fieldId, c.body)
      },
      { params: FieldParams, body: FieldInput, detail: { tags, summary: 'Replace a field (its defined values and timeslots are matched by id)' } },
    )
    .delete(
      '/proxy/api/events/:id/fields/:fieldId',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        await deleteField(ctx, await eventOfAgency(ctx, actor, c.params.id), c.params.fieldId)
        return { deleted: true }
      },
      { params: FieldParams, detail: { tags, summary: 'Remove a field (not the default form\'s, not while guests hold its places)' } },
    )
    .put(
      '/proxy/api/events/:id/form-settings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return updateFormSettings(ctx, await eventOfAgency(ctx, actor, c.params.id), c.body)
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
          agreements: (await effectiveAgreements(ctx.db, e)).map((a) => ({ id: a.id, displayName: a.display_name, description: a.description, appearance: a.appearance, version: a.version })),
        }
      },
      { params: EventParams, detail: { tags, summary: 'The registration form of a public event with free places per defined value and timeslot' } },
    )
}
