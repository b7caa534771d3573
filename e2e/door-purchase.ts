// Shared steps of the desk journeys (door-persons, transfer-unpaid): a paid event with transfer and invoice, a purchase by transfer
// through the public calls the public and pay pages make, the desk's code field.
import { type APIRequestContext, type Page } from '@playwright/test'
import { expect, type Server } from './fixtures'

export async function paidDoorEvent(req: APIRequestContext, server: Server, name = 'Hafenkonzert', extra: Record<string, unknown> = {}) {
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kaispeicher', city: 'Hamburg', maxVisitors: 100, allowSelfCheckin: true, ...extra },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  const cat = await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' } })
  expect(cat.status()).toBe(201)
  const ids: number[] = []
  for (const m of [{ method: 'TRANSFER', accountHolder: 'Hafenverein e.V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'HK-' }, { method: 'INVOICE' }]) {
    const r = await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: m })
    expect(r.status()).toBe(201)
    ids.push((await r.json()).id)
  }
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids } })).status()).toBe(200)
  return { eventId: id, categoryId: (await cat.json()).id as number }
}

/** Buys tickets by transfer (one per person: the buyer and the escorts named); answers the order's id. */
export async function buyByTransfer(
  req: APIRequestContext,
  server: Server,
  eventId: number,
  categoryId: number,
  buyer: { firstName: string; lastName: string; email: string; escortPersons?: Array<{ firstName: string; lastName: string }> },
): Promise<number> {
  const amount = 1 + (buyer.escortPersons?.length ?? 0)
  const r = await req.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', ...buyer, tickets: [{ categoryId, amount }] } })
  expect(r.status()).toBe(201)
  const orderId = (await r.json()).ticketOrderId as number
  const o = `${server.url}/proxy/api/guest/ticketOrder/${orderId}`
  const address = { receiver: `${buyer.firstName} ${buyer.lastName}`, street: 'Hafenstraße', streetNumber: '1', postCode: '20459', city: 'Hamburg' }
  expect((await (await req.post(`${o}/proceed/invoiceAddress`, { data: { invoiceAddress: address } })).json()).step).toBe(8)
  expect((await (await req.post(`${o}/proceed/paymentSelection`, { data: { paymentMethod: 'TRANSFER' } })).json()).step).toBe(40)
  expect((await (await req.post(`${o}/proceed/paymentPay`, { data: { paymentMethod: 'TRANSFER' } })).json()).step).toBe(100)
  return orderId
}

export const deskField = (p: Page) => p.getByRole('textbox', { name: 'Ticket-Code oder Name' })

/** What a hand scanner does: the code typed into the desk's field, then Enter. */
export async function scanAtDesk(p: Page, code: string) {
  await deskField(p).fill(code)
  await deskField(p).press('Enter')
}
