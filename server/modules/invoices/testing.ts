// Invoice drafts of every shape the invoices tests (and the ticketing tests) render and validate.
import type { InvoiceDraft } from './snapshot'

export const SELLER: InvoiceDraft['seller'] = {
  name: 'Agentur Sonnenschein GmbH',
  street: 'Hauptstraße',
  number: '1',
  postCode: '50667',
  city: 'Köln',
  country: 'DEU',
  vatId: 'DE123456789',
  taxNumber: '214/5678/0123',
  contactName: 'Ada Admin',
  phone: '+49 221 123456',
  email: 'rechnung@agentur.example',
}

export const BUYER: InvoiceDraft['buyer'] = { name: 'Greta Gast', street: 'Ringstraße', number: '5', postCode: '53111', city: 'Bonn', country: 'DEU', email: 'greta@example.org' }

export function draft(over: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return {
    kind: 'INVOICE',
    currency: 'EURO',
    issueDate: '2026-11-23',
    dueDate: '2026-12-07',
    deliveryDate: '2026-12-24',
    seller: SELLER,
    buyer: BUYER,
    buyerReference: 'EINL-1001',
    orderNumber: 'EINL-1001',
    eventName: 'Sommerfest',
    lines: [
      { name: 'Sommerfest – Stehplatz', quantity: 2, unitGrossCents: 2000, taxRate: 19 },
      { name: 'Sommerfest – Buffet', quantity: 1, unitGrossCents: 1290, taxRate: 7 },
    ],
    payment: { kind: 'TRANSFER', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', accountHolder: 'Agentur Sonnenschein GmbH', reference: 'EINL-1001' },
    paidCents: 0,
    paymentTerms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
    ...over,
  }
}

/** One draft per shape: several tax codes, a coupon, CHF, no tax, a Leitweg-ID, paid, at the venue. */
export const SHAPES: Record<string, InvoiceDraft> = {
  twoRates: draft(),
  coupon: draft({
    lines: [
      { name: 'Sommerfest – Stehplatz', quantity: 3, unitGrossCents: 3333, taxRate: 19 },
      { name: 'Gutschein SOMMER10', quantity: -1, unitGrossCents: 1000, taxRate: 19 },
      { name: 'Sommerfest – Buffet', quantity: 2, unitGrossCents: 1299, taxRate: 7 },
    ],
  }),
  chf: draft({
    currency: 'CHF',
    seller: { ...SELLER, country: 'CHE', vatId: 'CHE-123.456.789 MWST', taxNumber: null, city: 'Zürich', postCode: '8001' },
    lines: [
      { name: 'Konzert – Sitzplatz', quantity: 2, unitGrossCents: 4590, taxRate: 8.1 },
      { name: 'Konzert – Programmheft', quantity: 1, unitGrossCents: 500, taxRate: 2.6 },
    ],
    payment: { kind: 'LOCATION' },
  }),
  noTax: draft({
    seller: { ...SELLER, vatId: null, taxExemptionReason: 'Kein Ausweis von Umsatzsteuer, da Kleinunternehmer gemäß § 19 UStG.' },
    lines: [{ name: 'Workshop', quantity: 1, unitGrossCents: 4900, taxRate: null }],
    payment: { kind: 'INVOICE', iban: 'DE89370400440532013000', bic: null, accountHolder: 'Agentur Sonnenschein GmbH', reference: 'EINL-1002' },
  }),
  leitwegPaid: draft({
    buyerReference: '04011000-1234512345-06',
    buyer: { ...BUYER, name: 'Stadt Bonn, Amt für Kultur', taxId: 'DE811111111', receiver: 'Frau Becker' },
    paidCents: 5290,
    additionalText: 'Bestellnummer der Behörde: 4711',
  }),
}
