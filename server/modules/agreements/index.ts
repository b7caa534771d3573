// Agreements of the agency and events, who signed what and when, and the guest's signing call.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { onEventCopied } from '../events/hooks'
import { requireGuest, requireOrganiser } from '../identity/auth'
import { detailParts } from '../visitors/detail'
import { visitorOfEvent } from '../visitors/service'
import { AgreementInput, AgreementSearch, SignatureSearch, SignInput } from './model'
import { guestSignatureImage, guestSignatureRecord } from './guest-record'
import { AgreementTranslationInput, agreementTranslations, saveAgreementTranslation } from './translations'
import { requestLanguage } from '../../http/request'
import { agreementDto, agreementOfAgency, agreementsOfVisitor, createAgreement, deactivateAgreement, searchAgreements, searchSignatures, signAgreements, signatureLog, updateAgreement } from './service'

const IdParams = z.object({ id: idParam() })

detailParts.push(async (ctx, v) => {
  const e = await ctx.db.selectFrom('event').select(['id', 'agency_id']).where('id', '=', v.event_id).executeTakeFirstOrThrow()
  return { agreements: await agreementsOfVisitor(ctx, e, v.id) }
})

// An event's own agreements travel with a copy (global ones apply anyway).
onEventCopied.push(async (ctx, trx, from, to) => {
  if (from.agencyId !== to.agencyId) return
  const own = await trx.selectFrom('agreement').selectAll().where('event_id', '=', from.id).where('active', '=', true as never).execute()
  for (const { id: _id, created_at: _c, updated_at: _u, ...a } of own) await trx.insertInto('agreement').values({ ...a, event_id: to.id } as any).execute()
})

async function ownVisitor(ctx: AppContext, c: any, visitorId: number) {
  const guest = await requireGuest(ctx, c)
  const v = await ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', visitorId).executeTakeFirst()
  if (!v || v.user_id !== guest.user.id || v.status === 'DELETED') throw notFound()
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirstOrThrow()
  return { v, event }
}

export function agreementRoutes(ctx: AppContext) {
  return new Elysia({ name: 'agreements' })
    .post(
      '/proxy/api/agreements/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        if (c.body.eventId) await eventOfAgency(ctx, actor, c.body.eventId)
        return (await searchAgreements(ctx.db, actor.account.agency_id, c.body)).map(agreementDto)
      },
      { body: AgreementSearch, detail: { tags: ['agreements'], summary: 'Agreements of the agency; with eventId the ones that apply to that event (its own plus the global ones)' } },
    )
    .post(
      '/proxy/api/agreements',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGREEMENT.MANAGE')
        c.set.status = 201
        return agreementDto(await createAgreement(ctx, actor.account.agency_id, c.body))
      },
      { body: AgreementInput, detail: { tags: ['agreements'], summary: 'Create an agreement (GLOBAL agency default or EVENT)' } },
    )
    .get(
      '/proxy/api/agreements/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return agreementDto(await agreementOfAgency(ctx.db, actor.account.agency_id, c.params.id))
      },
      { params: IdParams, detail: { tags: ['agreements'], summary: 'One agreement' } },
    )
    .put(
      '/proxy/api/agreements/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGREEMENT.MANAGE')
        return agreementDto(await updateAgreement(ctx, actor.account.agency_id, c.params.id, c.body))
      },
      { params: IdParams, body: AgreementInput, detail: { tags: ['agreements'], summary: 'Change an agreement' } },
    )
    .get(
      '/proxy/api/agreements/:id/translations',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return agreementTranslations(ctx, await agreementOfAgency(ctx.db, actor.account.agency_id, c.params.id))
      },
      { params: IdParams, detail: { tags: ['agreements'], summary: "The agreement's name and text in German and the organiser's translation per language the licence offers" } },
    )
    .put(
      '/proxy/api/agreements/:id/translations/:language',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGREEMENT.MANAGE')
        return saveAgreementTranslation(ctx, await agreementOfAgency(ctx.db, actor.account.agency_id, c.params.id), c.params.language, c.body)
      },
      { params: z.object({ id: idParam(), language: z.string().min(1).max(10) }), body: AgreementTranslationInput, detail: { tags: ['agreements'], summary: "Save the agreement's name and text in one language (empty fields read German)" } },
    )
    .delete(
      '/proxy/api/agreements/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGREEMENT.MANAGE')
        return agreementDto(await deactivateAgreement(ctx, actor.account.agency_id, c.params.id))
      },
      { params: IdParams, detail: { tags: ['agreements'], summary: 'Withdraw an agreement (signatures stay on record)' } },
    )
    .post(
      '/proxy/api/agreements/signatures/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        return searchSignatures(ctx.db, actor.account.agency_id, c.body)
      },
      { body: SignatureSearch, detail: { tags: ['agreements'], summary: 'Who signed what and when, with the agreement filter (startDate, endDate, validity)' } },
    )
    .get(
      '/proxy/api/agreements/signatures/:id/signature',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        const row = await ctx.db
          .selectFrom('visitor_agreement as va')
          .innerJoin('agreement as a', 'a.id', 'va.agreement_id')
          .select(['va.signature', 'a.agency_id'])
          .where('va.id', '=', c.params.id)
          .executeTakeFirst()
        if (!row || row.agency_id !== actor.account.agency_id || !row.signature) throw notFound()
        const bytes = Buffer.from(row.signature.slice(row.signature.indexOf(',') + 1), 'base64')
        return new Response(bytes, { headers: { 'content-type': 'image/png', 'cache-control': 'private, no-store' } })
      },
      { params: IdParams, detail: { tags: ['agreements'], summary: 'The drawn signature of a decision (PNG)' } },
    )
    .get(
      '/proxy/api/agreements/signatures/log',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        return signatureLog(ctx.db, actor.account.agency_id, c.query.visitorId)
      },
      { query: z.object({ visitorId: idParam() }), detail: { tags: ['agreements'], summary: "A registration's every agreement decision as recorded (text and version shown, status, time, origin); never changed" } },
    )
    .get(
      '/proxy/api/agreements/signatures/log/:id/signature',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        const row = await ctx.db
          .selectFrom('agreement_signature as s')
          .innerJoin('event as e', 'e.id', 's.event_id')
          .select(['s.signature', 'e.agency_id'])
          .where('s.id', '=', c.params.id)
          .executeTakeFirst()
        if (!row || row.agency_id !== actor.account.agency_id || !row.signature) throw notFound()
        const bytes = Buffer.from(row.signature.slice(row.signature.indexOf(',') + 1), 'base64')
        return new Response(bytes, { headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' } })
      },
      { params: IdParams, detail: { tags: ['agreements'], summary: 'The signature image of one recorded decision (PNG)' } },
    )
    .post(
      '/proxy/api/events/:id/visitors/:vid/agreements',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CHECKIN')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const v = await visitorOfEvent(ctx.db, event, c.params.vid)
        return signAgreements(ctx, event, v, c.body, 'DESK', actor.account.id)
      },
      { params: z.object({ id: idParam(), vid: idParam() }), body: SignInput, detail: { tags: ['agreements'], summary: 'A guest signs at the desk (staff device)' } },
    )
    .get(
      '/proxy/api/guest/events/visitors/:vid/agreements',
      async (c) => {
        const { v, event } = await ownVisitor(ctx, c, c.params.vid)
        // name and text in the page's language where the organiser translated them
        return agreementsOfVisitor(ctx, event, v.id, requestLanguage(c.request, ctx.license.features))
      },
      { params: z.object({ vid: idParam() }), detail: { tags: ['guest'], summary: "The agreements of the guest's registration with their decisions" } },
    )
    .post(
      '/proxy/api/guest/events/visitors/:vid/agreements',
      async (c) => {
        const { v, event } = await ownVisitor(ctx, c, c.params.vid)
        return signAgreements(ctx, event, v, c.body, 'GUEST', null, requestLanguage(c.request, ctx.license.features))
      },
      { params: z.object({ vid: idParam() }), body: SignInput, detail: { tags: ['guest'], summary: 'The guest signs or declines agreements (CONFIRMED needs a drawn signature PNG)' } },
    )
    .get(
      '/proxy/api/guest/events/visitors/:vid/agreements/log',
      async (c) => {
        const { v } = await ownVisitor(ctx, c, c.params.vid)
        return guestSignatureRecord(ctx.db, v.id)
      },
      {
        params: z.object({ vid: idParam() }),
        detail: { tags: ['guest'], summary: "The guest's own signature record of the registration, newest first: agreement, text and version as shown, status, time, origin" },
      },
    )
    .get(
      '/proxy/api/guest/events/visitors/:vid/agreements/log/:id/signature',
      async (c) => {
        const { v } = await ownVisitor(ctx, c, c.params.vid)
        const png = await guestSignatureImage(ctx.db, v.id, c.params.id)
        return new Response(png as unknown as BodyInit, { headers: { 'content-type': 'image/png', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' } })
      },
      { params: z.object({ vid: idParam(), id: idParam() }), detail: { tags: ['guest'], summary: "The drawn signature of one of the guest's own recorded decisions (PNG)" } },
    )
}
