// Test helpers of ticketing: a paid event with categories and payment methods, a buyer, and the guest
// behind a registration.
import { expect } from 'bun:test'
import { type Agent, type Harness, eventBody, uniqueEmail } from '../../testing/harness'
import { linkIn } from '../../testing/smtp-sink'
import { resendAccessLink } from '../guest/access-link'

export const TRANSFER = { method: 'TRANSFER', accountHolder: 'Agentur GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'SF-' }

export async function paidEvent(admin: Agent, opts: { event?: Record<string, unknown>; categories?: Array<Record<string, unknown>>; methods?: Array<Record<string, unknown>> } = {}) {
  const e = await admin.post('/proxy/api/events', eventBody({ maxVisitors: 100, ...opts.event }))
  expect(e.status).toBe(201)
  const cats = []
  for (const c of opts.categories ?? [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }]) {
    const r = await admin.post(`/proxy/api/events/${e.body.id}/ticketCategories`, c)
    expect(r.status).toBe(201)
    cats.push(r.body)
  }
  const ids = []
  const existing = (await admin.get('/proxy/api/agency/paymentMethods')).body as Array<{ id: number; method: string; currency: string }>
  for (const m of opts.methods ?? [TRANSFER, { method: 'INVOICE' }, { method: 'LOCATION' }]) {
    const have = existing.find((x) => x.method === m.method && x.currency === ((m as { currency?: string }).currency ?? 'EURO'))
    if (have) ids.push(have.id)
    else {
      const r = await admin.post('/proxy/api/agency/paymentMethods', m)
      expect(r.status).toBe(201)
      ids.push(r.body.id)
    }
  }
  expect((await admin.put(`/proxy/api/events/${e.body.id}/paymentMethods`, { ids })).status).toBe(200)
  return { event: e.body as { id: number; [k: string]: any }, categories: cats as Array<{ id: number; [k: string]: any }> }
}

export const buyer = (tickets: Array<{ categoryId: number; amount: number }>, extra: Record<string, unknown> = {}) => ({ salutation: 'Frau', firstName: 'Berta', lastName: 'Käuferin', email: uniqueEmail('buyer'), tickets, ...extra })

export async function buy(h: Harness, eventId: number, body: Record<string, unknown>) {
  const r = await h.request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })
  return r
}

export const address = { receiver: 'Berta Käuferin', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin' }

/** Takes an order from its first step to paymentPay with `method` (invoice address, method, pay): the pay answer. */
export async function pay(h: Harness, id: string, method: string) {
  const o = `/proxy/api/guest/ticketOrder/${id}`
  let s = (await h.request('GET', o)).body.ticketOrder.step
  if (s === 1) s = (await h.request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step
  if (s === 8) s = (await h.request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: method } })).body.step
  expect(s).toBe(40)
  return (await h.request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: method } })).body
}

/** The guest behind a registration, signed in through an access link (its mail is delivered and read). */
export async function guestOf(h: Harness, visitorId: number): Promise<Agent> {
  const { email } = await h.ctx.db.selectFrom('event_visitor').select('email').where('id', '=', visitorId).executeTakeFirstOrThrow()
  await resendAccessLink(h.ctx, email!, null)
  const withLink = (m: { to: string[]; text: string }) => m.to.includes(email!) && m.text.includes('/guest/dashboard?token=')
  for (let i = 0; i < 20 && !h.smtp.mails.some(withLink); i++) await h.deliverMail()
  const mail = await h.smtp.waitFor(withLink)
  const guest = h.agent()
  guest.headers['x-guest-token'] = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
  return guest
}
