// Seller and invoice settings per agency (docs/ticketing.md, "Seller settings"). The imprint and
// privacy addresses are the agency's own (agency.imprint_url / privacy_url, which "Impressum und
// Kontakt" edits and the guest pages show): read and written here, stored once.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import type { SellerSettingsInput } from './model'
import type { SellerSettingsRow } from './ticketing.table'

type Legal = { imprint_url: string | null; privacy_url: string | null } | undefined

export function sellerDto(agencyId: number, s: SellerSettingsRow | undefined, legal: Legal) {
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
    imprintUrl: legal?.imprint_url ?? null,
    privacyUrl: legal?.privacy_url ?? null,
  }
}
export type SellerSettings = ReturnType<typeof sellerDto>

export async function sellerSettings(db: Db, agencyId: number): Promise<SellerSettings> {
  const [s, legal] = await Promise.all([
    db.selectFrom('seller_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst(),
    db.selectFrom('agency').select(['imprint_url', 'privacy_url']).where('id', '=', agencyId).executeTakeFirst(),
  ])
  return sellerDto(agencyId, s, legal)
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
    updated_at: isoNow(ctx.clock.now()),
  }
  // the imprint and privacy addresses: only those sent change (a form without them keeps the agency's)
  const legal = { ...(input.imprintUrl !== undefined ? { imprint_url: input.imprintUrl ?? null } : {}), ...(input.privacyUrl !== undefined ? { privacy_url: input.privacyUrl ?? null } : {}) }
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('seller_settings')
      .values({ agency_id: agencyId, ...cols })
      .onConflict((oc) => oc.column('agency_id').doUpdateSet(cols))
      .execute()
    if (Object.keys(legal).length) await trx.updateTable('agency').set(legal).where('id', '=', agencyId).execute()
  })
  return sellerSettings(ctx.db, agencyId)
}

/** The agency's money format: whether the currency sign stands before the amount (issue 20 item 16). */
export async function currencyPrefixOf(db: Db, agencyId: number): Promise<boolean> {
  const r = await db.selectFrom('seller_settings').select('currency_prefix').where('agency_id', '=', agencyId).executeTakeFirst()
  return bool(r?.currency_prefix)
}
