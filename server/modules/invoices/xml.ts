// XRechnung (CII and UBL) and ZUGFeRD / Factur-X from an invoice snapshot, through
// @e-invoice-eu/core's internal (UBL-shaped JSON) format. Nothing here computes an amount: every
// number comes from the snapshot, so the XML says what the PDF says.
import { InvoiceService } from '@e-invoice-eu/core'
import { alpha2Of } from '../forms/country-names'
import { ISO_CURRENCY, type InvoiceParty, type InvoiceSnapshot, type TaxRate } from './snapshot'

export type XmlSyntax = 'CII' | 'UBL'

const amount = (cents: number) => (cents / 100).toFixed(2)
const percent = (rate: TaxRate) => String(rate ?? 0)

function address(p: InvoiceParty) {
  return {
    'cbc:StreetName': [p.street, p.number].filter(Boolean).join(' '),
    'cbc:CityName': p.city,
    'cbc:PostalZone': p.postCode,
    'cac:Country': { 'cbc:IdentificationCode': alpha2Of(p.country) ?? 'DE' },
  }
}

function taxCategory(s: InvoiceSnapshot, rate: TaxRate, breakdown = false) {
  const id = rate === null ? 'E' : rate === 0 ? 'Z' : 'S'
  return {
    'cbc:ID': id,
    'cbc:Percent': percent(rate),
    ...(id === 'E' && breakdown ? { 'cbc:TaxExemptionReason': s.seller.taxExemptionReason || 'Steuerbefreit' } : {}),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  }
}

/** UNTDID 4461 payment means: 58 SEPA credit transfer, 10 cash (at the venue), 68 online payment, 1 not defined (coupon). */
function paymentMeans(s: InvoiceSnapshot) {
  const p = s.payment
  switch (p.kind) {
    case 'TRANSFER':
    case 'INVOICE':
      return {
        'cbc:PaymentMeansCode': '58',
        'cbc:PaymentID': p.reference,
        'cac:PayeeFinancialAccount': { 'cbc:ID': p.iban.replace(/\s+/g, ''), 'cbc:Name': p.accountHolder, ...(p.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': p.bic } } : {}) },
      }
    case 'LOCATION':
      return { 'cbc:PaymentMeansCode': '10' }
    case 'ONLINE':
      return { 'cbc:PaymentMeansCode': '68', 'cbc:PaymentID': p.reference }
    case 'COUPON':
      return { 'cbc:PaymentMeansCode': '1' }
  }
}

const sellerLegalId = (s: InvoiceSnapshot) => s.seller.registrationId || (s.seller.vatId ? null : s.seller.taxNumber) || null

/** The snapshot in @e-invoice-eu/core's internal format. */
export function internalInvoice(s: InvoiceSnapshot) {
  const cur = ISO_CURRENCY[s.currency]
  const money = (cents: number) => amount(cents)
  const sellerTax = [
    ...(s.seller.vatId ? [{ 'cbc:CompanyID': s.seller.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
    ...(s.seller.taxNumber ? [{ 'cbc:CompanyID': s.seller.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
  ]
  const notes = [s.additionalText, s.kind === 'CANCELLATION' && s.cancels ? `Stornorechnung zur Rechnung ${s.cancels.number} vom ${s.cancels.issueDate}` : null].filter(Boolean) as string[]
  return {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      'cbc:ProfileID': 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      'cbc:ID': s.number,
      'cbc:IssueDate': s.issueDate,
      ...(s.dueDate && s.totals.payableCents > 0 ? { 'cbc:DueDate': s.dueDate } : {}),
      'cbc:InvoiceTypeCode': s.kind === 'CANCELLATION' ? '381' : '380',
      ...(notes.length ? { 'cbc:Note': notes } : {}),
      'cbc:DocumentCurrencyCode': cur,
      'cbc:BuyerReference': s.buyerReference,
      'cac:OrderReference': { 'cbc:ID': s.orderNumber },
      ...(s.cancels ? { 'cac:BillingReference': [{ 'cac:InvoiceDocumentReference': { 'cbc:ID': s.cancels.number, 'cbc:IssueDate': s.cancels.issueDate } }] } : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cbc:EndpointID': s.seller.email,
          'cbc:EndpointID@schemeID': 'EM',
          'cac:PartyName': { 'cbc:Name': s.seller.name },
          'cac:PostalAddress': address(s.seller),
          ...(sellerTax.length ? { 'cac:PartyTaxScheme': sellerTax } : {}),
          // BR-CO-26: without a VAT id the seller needs an identifier: the trade register entry, else the tax number
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': s.seller.name, ...(sellerLegalId(s) ? { 'cbc:CompanyID': sellerLegalId(s) } : {}) },
          'cac:Contact': { 'cbc:Name': s.seller.contactName, 'cbc:Telephone': s.seller.phone, 'cbc:ElectronicMail': s.seller.email },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          'cbc:EndpointID': s.buyer.email,
          'cbc:EndpointID@schemeID': 'EM',
          'cac:PostalAddress': address(s.buyer),
          ...(s.buyer.taxId ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': s.buyer.taxId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } } : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': s.buyer.name },
          ...(s.buyer.receiver ? { 'cac:Contact': { 'cbc:Name': s.buyer.receiver } } : {}),
        },
      },
      'cac:Delivery': { 'cbc:ActualDeliveryDate': s.deliveryDate },
      'cac:PaymentMeans': [paymentMeans(s)],
      ...(s.paymentTerms ? { 'cac:PaymentTerms': { 'cbc:Note': s.paymentTerms } } : {}),
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': money(s.totals.taxCents),
          'cbc:TaxAmount@currencyID': cur,
          'cac:TaxSubtotal': s.taxGroups.map((g) => ({
            'cbc:TaxableAmount': money(g.netCents),
            'cbc:TaxableAmount@currencyID': cur,
            'cbc:TaxAmount': money(g.taxCents),
            'cbc:TaxAmount@currencyID': cur,
            'cac:TaxCategory': taxCategory(s, g.rate, true),
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': money(s.totals.netCents),
        'cbc:LineExtensionAmount@currencyID': cur,
        'cbc:TaxExclusiveAmount': money(s.totals.netCents),
        'cbc:TaxExclusiveAmount@currencyID': cur,
        'cbc:TaxInclusiveAmount': money(s.totals.grossCents),
        'cbc:TaxInclusiveAmount@currencyID': cur,
        ...(s.totals.paidCents ? { 'cbc:PrepaidAmount': money(s.totals.paidCents), 'cbc:PrepaidAmount@currencyID': cur } : {}),
        'cbc:PayableAmount': money(s.totals.payableCents),
        'cbc:PayableAmount@currencyID': cur,
      },
      'cac:InvoiceLine': s.lines.map((l, i) => ({
        'cbc:ID': String(i + 1),
        'cbc:InvoicedQuantity': String(l.quantity),
        'cbc:InvoicedQuantity@unitCode': 'C62',
        'cbc:LineExtensionAmount': money(l.netCents),
        'cbc:LineExtensionAmount@currencyID': cur,
        'cac:Item': { 'cbc:Name': l.name, 'cac:ClassifiedTaxCategory': taxCategory(s, l.taxRate) },
        'cac:Price': { 'cbc:PriceAmount': money(Math.abs(l.unitNetCents)), 'cbc:PriceAmount@currencyID': cur },
      })),
    },
  }
}

/**
 * InvoiceService.generate builds a new Ajv and compiles the whole invoice schema on every call
 * (~0.9 s of CPU per invoice). The compiled validator depends only on the format, so the first call
 * per format goes through the library and hands its validator over; later calls repeat the
 * library's few remaining steps (clone, validate with defaults, fill defaults, format) with it.
 */
class CompiledInvoiceService extends InvoiceService {
  private readonly validators = new Map<string, unknown>()
  override async generate(input: never, options: { format: string }): Promise<string | Uint8Array> {
    const self = this as unknown as {
      logger: unknown
      formatFactoryService: { createFormatService(f: string, l: unknown): any; normalizeFormat(f: string): string }
      validationService: { validate(what: string, validator: unknown, data: unknown): any }
    }
    const format = self.formatFactoryService.normalizeFormat(options.format)
    const validator = this.validators.get(format)
    if (!validator) {
      const validate = self.validationService.validate
      self.validationService.validate = (what, v, data) => {
        if (what === 'invoice data') this.validators.set(format, v)
        return validate.call(self.validationService, what, v, data)
      }
      try {
        return await super.generate(input, options as never)
      } finally {
        self.validationService.validate = validate
      }
    }
    const formatter = self.formatFactoryService.createFormatService(options.format, self.logger)
    options.format = format
    const invoice = self.validationService.validate('invoice data', validator, structuredClone(input))
    formatter.fillInvoiceDefaults(invoice)
    return formatter.generate(invoice, options)
  }
}

const service = new CompiledInvoiceService({ log() {}, warn() {}, error() {} } as never)

/**
 * BT-25/BT-26 in CII: the library maps the preceding invoice (BG-3) from `cac:BillingReference/cbc:ID`,
 * but its own input schema puts the number under `cac:InvoiceDocumentReference`, so a cancellation's
 * CII (XRechnung CII and the XML inside Factur-X) never named the invoice it cancels, and the date
 * would go under udt: where CII wants qdt:. The CII formatter's post-processing step adds
 * `ram:InvoiceReferencedDocument` right after the monetary summation (its place in the schema).
 * Patched once on the CII formatter's prototype, which the XRechnung CII and Factur-X formats share.
 */
function patchPrecedingInvoice() {
  const formatter = (service as unknown as { formatFactoryService: { createFormatService(f: string, l: unknown): object } }).formatFactoryService.createFormatService('XRECHNUNG-CII', { log() {}, warn() {}, error() {} })
  let proto: any = Object.getPrototypeOf(formatter)
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'postProcess')) proto = Object.getPrototypeOf(proto)
  if (!proto || proto.__precedingInvoicePatched) return
  const generate = proto.generate as (invoice: any, options: unknown) => Promise<unknown>
  const postProcess = proto.postProcess as (cii: any) => void
  // generate runs convert and postProcess synchronously before its first await: the invoice being
  // rendered is known to postProcess through this variable, never across two renderings
  let current: any = null
  proto.generate = function (this: unknown, invoice: unknown, options: unknown) {
    current = invoice
    try {
      return generate.call(this, invoice, options)
    } finally {
      current = null
    }
  }
  proto.postProcess = function (this: unknown, cii: any) {
    postProcess.call(this, cii)
    const ref = current?.['ubl:Invoice']?.['cac:BillingReference']?.[0]?.['cac:InvoiceDocumentReference']
    const settlement = cii['rsm:CrossIndustryInvoice']?.['rsm:SupplyChainTradeTransaction']?.['ram:ApplicableHeaderTradeSettlement']
    if (!ref?.['cbc:ID'] || !settlement || settlement['ram:InvoiceReferencedDocument']) return
    const doc: Record<string, unknown> = { 'ram:IssuerAssignedID': ref['cbc:ID'] }
    if (ref['cbc:IssueDate']) doc['ram:FormattedIssueDateTime'] = { 'qdt:DateTimeString': String(ref['cbc:IssueDate']).replace(/-/g, ''), 'qdt:DateTimeString@format': '102' }
    // keys in schema order: the reference follows the monetary summation
    const entries = Object.entries(settlement)
    for (const k of Object.keys(settlement)) delete settlement[k]
    let placed = false
    for (const [k, v] of entries) {
      settlement[k] = v
      if (k === 'ram:SpecifiedTradeSettlementHeaderMonetarySummation') {
        settlement['ram:InvoiceReferencedDocument'] = doc
        placed = true
      }
    }
    if (!placed) settlement['ram:InvoiceReferencedDocument'] = doc
  }
  proto.__precedingInvoicePatched = true
}
patchPrecedingInvoice()

/** XRechnung XML in CII or UBL. */
export async function renderXml(s: InvoiceSnapshot, syntax: XmlSyntax): Promise<string> {
  return renderInternal(internalInvoice(s), syntax)
}

/** The library's internal invoice format rendered (exported for the test that proves the kept validator still refuses). */
export async function renderInternal(invoice: unknown, syntax: XmlSyntax): Promise<string> {
  const out = await service.generate(invoice as never, { format: syntax === 'CII' ? 'XRECHNUNG-CII' : 'XRECHNUNG-UBL', lang: 'de-de' } as never)
  return typeof out === 'string' ? out : new TextDecoder().decode(out as Uint8Array)
}

/** ZUGFeRD / Factur-X: the invoice PDF (PDF/A-3) with its XRechnung CII embedded (as xrechnung.xml, the profile's name for it). */
export async function renderFacturX(s: InvoiceSnapshot, pdf: Uint8Array): Promise<Uint8Array> {
  const out = await service.generate(internalInvoice(s) as never, {
    format: 'Factur-X-XRechnung',
    lang: 'de-de',
    pdf: { buffer: pdf, filename: `Rechnung-${s.number}.pdf`, mimetype: 'application/pdf' },
  } as never)
  return typeof out === 'string' ? new TextEncoder().encode(out) : (out as Uint8Array)
}
