// The server edition's license and feature page: who holds the license, until when, which
// features it includes and how much of each limit the agency uses. Features are ordered through
// support (spec: agency-side 2.6), so there is nothing to book here.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import { requireOrganiser } from '../identity/auth'
import { limitsDto } from '../limits/service'
import { EDITION_FEATURES, KNOWN_FEATURES, hasFeature } from './license'
import { SupportRequestBody, sendSupportRequest } from './support-request'

export function licenseOverview(ctx: AppContext, usage: Awaited<ReturnType<typeof limitsDto>>) {
  const l = ctx.license
  const features = [...new Set([...KNOWN_FEATURES, ...l.features])]
  return {
    edition: l.edition,
    licensee: l.licensee,
    validUntil: l.validUntil,
    /** why the community defaults apply; null when licensed */
    problem: l.problem,
    /** everyEdition: part of every edition (EDITION_FEATURES), included without a license */
    features: features.map((code) => ({ featureCode: code, included: hasFeature(l, code), everyEdition: (EDITION_FEATURES as readonly string[]).includes(code) })),
    limits: usage,
    supportEmail: ctx.config.support.email,
  }
}

/**
 * The subscription edition's payment steps (spec §7: POST /api/abo/proceed/paymentSelection,
 * /proceed/paymentPay, /clearPayment). This edition books nothing online: each answers 409
 * BOOKING_VIA_SUPPORT naming the support address (§2.6 "server edition needs support").
 */
const ABO_CALLS = ['/proxy/api/abo/proceed/paymentSelection', '/proxy/api/abo/proceed/paymentPay', '/proxy/api/abo/clearPayment'] as const

export function licenseRoutes(ctx: AppContext) {
  const viaSupport = async (c: Parameters<typeof requireOrganiser>[1]) => {
    await requireOrganiser(ctx, c, 'AGENCY.ABO')
    throw new AppError(409, 'BOOKING_VIA_SUPPORT', { params: { email: ctx.config.support.email }, extra: { supportEmail: ctx.config.support.email } })
  }
  let app = new Elysia({ name: 'license' })
  for (const path of ABO_CALLS) {
    app = app.post(path, viaSupport, {
      parse: 'none',
      detail: { tags: ['license'], summary: 'Subscription payment step of the subscription edition: here always 409 BOOKING_VIA_SUPPORT (order through support)' },
    }) as unknown as typeof app
  }
  return app
    .post('/proxy/api/license/request', async (c) => sendSupportRequest(ctx, await requireOrganiser(ctx, c, 'AGENCY.ABO'), c.body), {
      body: SupportRequestBody,
      detail: { tags: ['license'], summary: 'Order through support: mails a request naming what is wanted (featureType, featureCode or amount, message) to the support address' },
    })
    .get(
    '/proxy/api/license',
    async (c) => {
      const actor = await requireOrganiser(ctx, c, 'AGENCY.ABO')
      return licenseOverview(ctx, await limitsDto(ctx, actor.account.agency_id))
    },
    { detail: { tags: ['license'], summary: 'License holder, validity, features and limits with the agency’s usage' } },
  )
}
