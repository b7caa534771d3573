// Seller and invoice settings per agency (docs/ticketing.md, "Seller settings").
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import type { SellerSettingsInput } from './model'
import type { SellerSettingsRow } from './ticketing.table'

export function sellerDto(agencyId: number, s: SellerSettingsRow | undefined) {
  return {
    agencyId,
    name: s?.name ?? null,
    street: s?.street ?? null,
    streetNumber: s?.street_number ?? null,
    postCode: s?.post_code ?? null,
    city: s?.city ?? null,
    country: s?.country ?? 'DEU',
    vatId: s?.vat_id ?? null,
    taxNumber: s?.tax_number ?? null,
    contactName: s?.contact_name ?? null,
    phone: s?.phone ?? null,
    email: s?.email ?? null,
    invoiceNumberPrefix: s?.invoice_number_prefix ?? null,
    useInvoiceXML: bool(s?.use_invoice_xml),
    requireReferenceId: bool(s?.require_reference_id),
    paymentTermsDays: s?.payment_terms_days ?? 14,
    currencyPrefix: bool(s?.currency_prefix),
    imprintUrl: s?.imprint_url ?? null,
    privacyUrl: s?.privacy_url ?? null,
  }
}
export type SellerSettings = ReturnType<typeof sellerDto>

export async function sellerSettings(db: Db, agencyId: number): Promise<SellerSettings> {
  return sellerDto(agencyId, await db.selectFrom('seller_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst())
}

export async function saveSellerSettings(ctx: AppContext, agencyId: number, input: SellerSettingsInput) {
  const cols = {
    name: input.name,
    street: input.street,
    street_number: input.streetNumber,
    post_code: input.postCode,
    city: input.city,
    country: input.country,
    vat_id: input.vatId,
    tax_number: input.taxNumber,
    contact_name: input.contactName,
    phone: input.phone,
    email: input.email,
    invoice_number_prefix: input.invoiceNumberPrefix,
    use_invoice_xml: input.useInvoiceXML,
    require_reference_id: input.requireReferenceId,
    payment_terms_days: input.paymentTermsDays,
    currency_prefix: input.currencyPrefix,
    imprint_url: input.imprintUrl,
    privacy_url: input.privacyUrl,
    updated_at: isoNow(ctx.clock.now()),
  }
  await ctx.db
    .insertInto('seller_settings')
    .values({ agency_id: agencyId, ...cols })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet(cols))
    .execute()
  return sellerSettings(ctx.db, agencyId)
}

/** The agency's money format: whether the currency sign stands before the amount (issue 20 item 16). */
export async function currencyPrefixOf(db: Db, agencyId: number): Promise<boolean> {
  const r = await db.selectFrom('seller_settings').select('currency_prefix').where('agency_id', '=', agencyId).executeTakeFirst()
  return bool(r?.currency_prefix)
}
