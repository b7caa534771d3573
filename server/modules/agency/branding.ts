// The agency's logo (guest-side.md 2, shell: "header with the agency's logo and the event title").
// Set by the agency's administrators from an image they uploaded (assets module, with its image
// checks); served openly at /proxy/api/public/agency/{id}/logo because it is shown on open pages
// (public event page, no-permission page) whatever the upload's own `secure` flag says. Only the asset
// an agency chose as its logo is served there, never another one.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fieldError, notFound } from '../../shared/errors'
import { type Dimension, findAsset, variantBytes } from '../assets/service'

/** The path guest pages load the logo from; `v` changes with the logo so caches never show an old one. */
export const logoPath = (agencyId: number, assetId: number | null | undefined) => (assetId ? `/proxy/api/public/agency/${agencyId}/logo?v=${assetId}` : null)

/** What a guest page's header shows for an agency: its logo, else its name. */
export interface AgencyBrand {
  id: number
  displayName: string
  logoPath: string | null
}

export const brandOf = (a: { id: number; display_name: string; logo_asset_id?: number | null }): AgencyBrand => ({
  id: a.id,
  displayName: a.display_name,
  logoPath: logoPath(a.id, a.logo_asset_id),
})

export async function readLogo(db: Db, agencyId: number) {
  const a = await db.selectFrom('agency').select(['id', 'logo_asset_id']).where('id', '=', agencyId).executeTakeFirstOrThrow()
  return { logoAssetId: a.logo_asset_id, logoPath: logoPath(a.id, a.logo_asset_id) }
}

/** Sets or clears the logo: an image the agency itself uploaded (not a guest's form upload). */
export async function saveLogo(ctx: AppContext, agencyId: number, logoAssetId: number | null) {
  if (logoAssetId != null) {
    const a = await findAsset(ctx.db, logoAssetId).catch(() => null)
    if (!a || a.agency_id !== agencyId || a.owner_identification !== null || a.visitor_id !== null || !a.mime_type.startsWith('image/')) {
      throw fieldError([{ field: 'logoAssetId', errorType: 'INVALID' }])
    }
  }
  await ctx.db.updateTable('agency').set({ logo_asset_id: logoAssetId }).where('id', '=', agencyId).execute()
  return readLogo(ctx.db, agencyId)
}

/** The logo image of an agency in a size; 404 when the agency has none. */
export async function logoImage(ctx: AppContext, agencyId: number, dimension: Dimension) {
  const row = await ctx.db.selectFrom('agency').select('logo_asset_id').where('id', '=', agencyId).executeTakeFirst()
  if (!row?.logo_asset_id) throw notFound()
  const a = await findAsset(ctx.db, row.logo_asset_id)
  if (a.agency_id !== agencyId) throw notFound()
  return variantBytes(ctx, a, dimension)
}

/**
 * Whose logo the guest shell shows: the agency of the guest account the session chose, else the one
 * agency all of the guest's registrations belong to. A guest of several agencies (and no chosen
 * account) sees einlass's mark: another agency's logo over their events would mislead.
 */
export async function guestBrand(db: Db, userId: number, accountAgencyId: number | null): Promise<AgencyBrand | null> {
  const agencies = accountAgencyId
    ? await db.selectFrom('agency').select(['id', 'display_name', 'logo_asset_id']).where('id', '=', accountAgencyId).execute()
    : await db
        .selectFrom('agency as a')
        .select(['a.id', 'a.display_name', 'a.logo_asset_id'])
        .where((eb) =>
          eb(
            'a.id',
            'in',
            eb
              .selectFrom('event_visitor as v')
              .innerJoin('event as e', 'e.id', 'v.event_id')
              .select('e.agency_id')
              .where('v.user_id', '=', userId)
              .where('v.status', '!=', 'DELETED')
              .where('e.status', '!=', 'DELETED'),
          ),
        )
        .limit(2)
        .execute()
  return agencies.length === 1 ? brandOf(agencies[0]!) : null
}
