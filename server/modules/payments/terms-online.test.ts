// The organiser's terms before an online payment (docs/ticketing.md, "Selling rules"): Mollie's and
// PayPal's starts refuse without the acceptance, record it with it, and PayPal's approval (paymentPay
// after paypal/init) finds it recorded.
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { MOLLIE, PAYPAL, onlineEvent, orderRow, orderUrl, startFakes, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

forEachDialect(
  'terms before online payments',
  (h) => {
    test('Mollie: mollie/init without acceptTerms is TERMS_NOT_ACCEPTED, with it the checkout starts and the order keeps the acceptance', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      expect((await admin.put(`/proxy/api/events/${event.id}/ticketTerms`, { termsUrl: 'https://example.org/agb' })).status).toBe(200)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const refused = await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)
      expect(refused.status).toBe(400)
      expect(refused.body.errorFields).toEqual([{ field: 'acceptTerms', errorType: 'TERMS_NOT_ACCEPTED' }])
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'MOLLIE' } })).status).toBe(400)
      expect(await orderRow(h(), id)).toMatchObject({ step: 40, status: 'OPEN' })
      const init = await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`, { body: { acceptTerms: true } })
      expect(init.body).toMatchObject({ step: 70 })
      const row = await h().ctx.db.selectFrom('ticket_order').select(['terms_version', 'terms_accepted_at']).where('public_id', '=', id).executeTakeFirstOrThrow()
      expect(row.terms_version).toBe('https://example.org/agb')
      expect(row.terms_accepted_at).not.toBeNull()
    })

    test('PayPal: paypal/init refuses without acceptTerms and records it with it', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, PAYPAL)
      expect((await admin.put(`/proxy/api/events/${event.id}/ticketTerms`, { termsText: 'Keine Rückgabe.' })).status).toBe(200)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const refused = await h().request('POST', `${orderUrl(id)}/proceed/paypal/init`, { body: {} })
      expect(refused.body.errorFields).toEqual([{ field: 'acceptTerms', errorType: 'TERMS_NOT_ACCEPTED' }])
      const init = await h().request('POST', `${orderUrl(id)}/proceed/paypal/init`, { body: { acceptTerms: true } })
      expect(init.status).toBe(200)
      expect(init.body.payPalPayment.orderID).toBeTruthy()
      const row = await h().ctx.db.selectFrom('ticket_order').select(['terms_version', 'terms_text']).where('public_id', '=', id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ terms_text: 'Keine Rückgabe.' })
      expect(row.terms_version).toMatch(/^text:[0-9a-f]{16}$/)
    })
  },
  { env: fakes.env },
)
