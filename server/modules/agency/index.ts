// The agency's own settings that no other domain owns: its logo (branding.ts).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { DIMENSIONS, type Dimension } from '../assets/service'
import { requireOrganiser } from '../identity/auth'
import { logoImage, readLogo, saveLogo } from './branding'

export const LogoInput = z.object({ logoAssetId: z.number().int().positive().nullable() })

export function agencyRoutes(ctx: AppContext) {
  return new Elysia({ name: 'agency' })
    .get(
      '/proxy/api/agency/logo',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return readLogo(ctx.db, actor.account.agency_id)
      },
      { detail: { tags: ['agency'], summary: "The agency's logo (guest pages' header, public event page)" } },
    )
    .put(
      '/proxy/api/agency/logo',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return saveLogo(ctx, actor.account.agency_id, c.body.logoAssetId)
      },
      { body: LogoInput, detail: { tags: ['agency'], summary: 'Set the agency logo (an image the agency uploaded with POST /api/asset) or clear it (null)' } },
    )
    .get(
      '/proxy/api/public/agency/:id/logo',
      async (c) => {
        const img = await logoImage(ctx, c.params.id, (c.query.dimension ?? 'Regular_400') as Dimension)
        // the address carries ?v=<asset id>: a new logo is a new address, so caching is safe
        return new Response(img.data as unknown as BodyInit, {
          headers: { 'content-type': img.mime, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
        })
      },
      {
        params: z.object({ id: idParam() }),
        query: z.object({ dimension: z.enum(Object.keys(DIMENSIONS) as [Dimension, ...Dimension[]]).optional(), v: z.string().max(20).optional() }),
        detail: { tags: ['agency'], summary: "An agency's logo image (open: it is shown on public and guest pages)" },
      },
    )
}
