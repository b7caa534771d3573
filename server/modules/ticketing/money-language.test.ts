// Issue 24: the ticket prices the server writes for the public ticket chooser follow the guest's
// language (Intl's money format there); German keeps the agency's format (money-format.test.ts).
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { licenseWith } from '../../testing/organiser'
import { paidEvent } from './testing'

forEachDialect(
  'ticket prices in the guest language',
  (h) => {
    test('fr "25,00 €", en "€25.00", German "25,00 €"; an ungated or unknown language reads German', async () => {
      const admin = await h().admin()
      const { event } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }] })
      const price = async (language: string) => (await h().request('GET', `/proxy/api/public/events/${event.id}/ticketCategories?language=${language}`)).body.items[0].grossPriceText.replace(/\s/g, ' ')
      expect(await price('fr')).toBe('25,00 €')
      expect(await price('en')).toBe('€25.00')
      expect(await price('de')).toBe('25,00 €')
      expect(await price('xx')).toBe('25,00 €')
    })
  },
  { license: licenseWith(['MULTI_LANGUAGE', 'TICKETING', 'PAYMENT']) },
)
