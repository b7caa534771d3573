// POST /api/asset (multipart upload), GET /proxy/api/asset/{id}/download and sized images
// /proxy/api/asset/{id}?dimension=Regular_400|1000|2000, each with access checked.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { formDefinitions } from '../forms/service'
import { kindOf } from '../forms/definitions'
import { type HttpContext, currentGuest, currentUser } from '../identity/auth'
import { clientIp } from '../../http/client-address'
import { throttle } from '../identity/rate-limit'
import { can, isGuestRole } from '../identity/roles'
import { Identification } from '../reservations/model'
import type { AssetRow } from './assets.table'
import './expiry'
import { DIMENSIONS, type Dimension, UPLOAD_TYPES, assetDto, findAsset, originalStream, storeUpload, variantBytes } from './service'

/** The anonymous uploader's browser identification (the same id its reservations carry). */
export const IDENTIFICATION_HEADER = 'x-guest-identification'

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1'))

const UploadBody = z.object({
  file: z.instanceof(File, { message: 'REQUIRED' }),
  fileName: z.string().max(255).optional(),
  type: z.enum(UPLOAD_TYPES).default('DYNAMIC_FILE'),
  secure: flag,
  storeOwnMedia: flag,
  agency: z.coerce.number().int().positive().optional(),
  /** public form uploads: the event whose form has the IMAGE/FILE field */
  event: z.coerce.number().int().positive().optional(),
})

const identificationOf = (request: Request): string | null => {
  const raw = request.headers.get(IDENTIFICATION_HEADER) ?? new URL(request.url).searchParams.get('guestId')
  const r = Identification.safeParse(raw)
  return r.success ? r.data : null
}

/** Who may read a secure asset: its agency's organisers, its uploader, and the guest it belongs to. */
async function canRead(ctx: AppContext, c: HttpContext, a: AssetRow): Promise<boolean> {
  if (!bool(a.secure)) return true
  const ident = identificationOf(c.request)
  if (ident && a.owner_identification === ident && a.visitor_id === null) return true
  const user = await currentUser(ctx, c).catch(() => null)
  if (user?.account && !isGuestRole(user.account.user_role) && user.account.agency_id === a.agency_id) return true
  if (user && a.owner_user_id === user.user.id) return true
  if (a.visitor_id !== null) {
    const guest = await currentGuest(ctx, c).catch(() => null)
    if (guest) {
      const v = await ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', a.visitor_id).executeTakeFirst()
      if (v?.user_id === guest.user.id) return true
    }
  }
  return false
}

const inlineName = (name: string) => `filename*=UTF-8''${encodeURIComponent(name)}`

export function assetRoutes(ctx: AppContext) {
  return new Elysia({ name: 'assets' })
    .post(
      '/proxy/api/asset',
      async (c) => {
        const body = c.body
        const fileName = (body.fileName || body.file.name || 'upload').replace(/[\\/]/g, '_')
        const user = await currentUser(ctx, c).catch(() => null)
        const organiser = user?.account && !isGuestRole(user.account.user_role) ? user : null
        let agencyId: number
        let eventId: number | null = null
        let ownerIdentification: string | null = null
        let clientAddress: string | null = null
        let secure = body.secure ?? true
        if (organiser && !body.event) {
          if (!can(organiser.account!.user_role, 'ASSET.UPLOAD')) throw new AppError(403, 'NO_PERMISSION')
          agencyId = organiser.account!.agency_id
          if (body.agency && body.agency !== agencyId) throw notFound()
        } else {
          // A guest filling in the public form: only into an event whose form asks for a file.
          // a guest-role account is logged in but holds no ASSET.UPLOAD (docs/permissions.md: 403)
          if (!body.event) throw user?.account ? new AppError(403, 'NO_PERMISSION') : new AppError(401, 'NOT_AUTHENTICATED')
          const ident = identificationOf(c.request)
          if (!ident) throw new AppError(400, 'INVALID_PARAMETERS')
          // before anything reads the image: anonymous uploads are counted per client address
          clientAddress = clientIp(c.request, c.server, ctx.config.server.trusted_proxies)
          await throttle(ctx, [['UPLOAD_ADDRESS', clientAddress]])
          const e = await findEvent(ctx.db, body.event)
          if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
          const defs = await formDefinitions(ctx.db, e)
          const kinds = defs.filter((f) => f.appearance !== 'HIDDEN').map(kindOf)
          const wanted = body.type === 'EVENT_GUEST' ? 'IMAGE' : 'FILE'
          if (!(body.type === 'EVENT_GUEST' || body.type === 'DYNAMIC_FILE') || !kinds.includes(wanted)) throw new AppError(403, 'NO_PERMISSION')
          agencyId = e.agency_id
          eventId = e.id
          ownerIdentification = ident
          secure = true
        }
        const asset = await storeUpload(ctx, {
          file: body.file,
          fileName,
          type: body.type,
          secure,
          storeOwnMedia: body.storeOwnMedia ?? false,
          agencyId,
          eventId,
          ownerUserId: user?.user.id ?? null,
          ownerIdentification,
          clientAddress,
        })
        c.set.status = 201
        return assetDto(asset)
      },
      {
        body: UploadBody,
        detail: { tags: ['assets'], summary: 'Upload a file (multipart: file, fileName, type, secure, agency, storeOwnMedia; public form uploads add event and the x-guest-identification header)' },
      },
    )
    .get(
      '/proxy/api/asset/:id/download',
      async (c) => {
        const a = await findAsset(ctx.db, c.params.id)
        if (!(await canRead(ctx, c, a))) throw notFound()
        const data = await originalStream(ctx, a)
        return new Response(data, {
          headers: { 'content-type': a.mime_type, 'content-disposition': `attachment; ${inlineName(a.original_file_name)}`, 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' },
        })
      },
      { params: z.object({ id: idParam() }), query: z.object({ guestId: z.string().max(64).optional(), token: z.string().max(200).optional() }), detail: { tags: ['assets'], summary: 'Download the original file' } },
    )
    .get(
      '/proxy/api/asset/:id',
      async (c) => {
        const a = await findAsset(ctx.db, c.params.id)
        if (!(await canRead(ctx, c, a))) throw notFound()
        const dim = (c.query.dimension ?? 'Regular_1000') as Dimension
        const v = await variantBytes(ctx, a, dim)
        return new Response(v.data as unknown as BodyInit, {
          headers: { 'content-type': v.mime, 'cache-control': bool(a.secure) ? 'private, no-store' : 'public, max-age=86400', 'content-disposition': `inline; ${inlineName(a.original_file_name)}` },
        })
      },
      {
        params: z.object({ id: idParam() }),
        query: z.object({ dimension: z.enum(Object.keys(DIMENSIONS) as [Dimension, ...Dimension[]]).optional(), guestId: z.string().max(64).optional(), token: z.string().max(200).optional(), t: z.string().max(40).optional() }),
        detail: { tags: ['assets'], summary: 'An image in a size (Regular_400, Regular_1000 default, Regular_2000)' },
      },
    )
}
