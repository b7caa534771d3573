// The guest's documents: /proxy/api/download/{token}[/{document}] (also /api/…), the invitation's
// prepare call, and the organiser's document settings (admin only). docs/guest-portal.md "Documents".
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireGuest, requireOrganiser } from '../identity/auth'
import { DocumentParams, DocumentSettingsInput, TokenParams } from './model'
import { download, prepareInvitation } from './service'
import { readSettings, saveSettings } from './settings'
import { selfCheckinTokenParts } from '../checkin/self'
import { downloadPath, isRegistered } from './tokens'
import { type OrderColumns, orderStateOf, ticketBlock } from '../checkin/ticket-validity'

// The self check-in dialog's "name tags download" (guest-side.md 2): the registration's PDF token with
// the name-tags document, for registrations that have tickets (the download refuses the others anyway).
// Without this part the dialog never showed the button.
// Not for a ticket that is not valid (yet): the name tags carry its QR codes (ticket-validity.ts; the
// self check-in read the registration with its latest order).
selfCheckinTokenParts.push(async (_ctx, v, event): Promise<Record<string, string | null>> =>
  v.download_token && isRegistered(v.status) && !ticketBlock(orderStateOf(v as Partial<OrderColumns>), event.invoice_tickets)
    ? { downloadTokenNameTags: v.download_token, downloadLinkNameTags: downloadPath(v.download_token, 'nameTags') }
    : {},
)

/** The German file name for browsers that read filename*, an ASCII one for the others. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\/;]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName.replace(/[/\\]/g, '_'))}`
}

async function answer(ctx: AppContext, token: string, document?: string): Promise<Response> {
  const d = await download(ctx, token, document)
  if ('redirect' in d) return new Response(null, { status: 302, headers: { location: d.redirect, 'cache-control': 'private, no-store' } })
  return new Response(d.body as unknown as BodyInit, {
    headers: { 'content-type': d.contentType, 'content-disposition': contentDisposition(d.fileName), 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' },
  })
}

export function documentRoutes(ctx: AppContext) {
  return new Elysia({ name: 'documents' })
    .get('/proxy/api/download/:token', (c) => answer(ctx, c.params.token), {
      params: TokenParams,
      detail: {
        tags: ['guest'],
        summary: 'A guest document by download token: downloadToken → ticket PDF (entry ticket under SYSTEM_COVIDOO; invitation before registering), downloadTokenIcs → calendar entry, downloadTokenWallet → Apple Wallet pass. Unknown tokens and those of deleted or declined registrations: 404',
      },
    })
    .get('/proxy/api/download/:token/:document', (c) => answer(ctx, c.params.token, c.params.document), {
      params: DocumentParams,
      detail: { tags: ['guest'], summary: 'A named document: downloadToken with ticket, entryTicket, nameTags or invitation; downloadTokenWallet with google (302 to the Google Wallet save link)' },
    })
    .post(
      '/proxy/api/guest/:id/prepareDownloadInvitation',
      async (c) => prepareInvitation(ctx, await requireGuest(ctx, c), c.params.id),
      { params: z.object({ id: idParam() }), detail: { tags: ['guest'], summary: 'Prepare the invitation PDF of the guest\'s registration {id}: answers at once with status DONE and the download link (another guest\'s registration: 404)' } },
    )
    .get(
      '/proxy/api/agency/documentSettings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return readSettings(ctx, actor.account.agency_id)
      },
      { detail: { tags: ['agency'], summary: 'Logo and wallet settings of the agency\'s documents (keys are never returned)' } },
    )
    .put(
      '/proxy/api/agency/documentSettings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return saveSettings(ctx, actor.account.agency_id, c.body)
      },
      { body: DocumentSettingsInput, detail: { tags: ['agency'], summary: 'Save logo and wallet settings (admin); certificates are checked against their keys (WALLET_CERTIFICATE_INVALID)' } },
    )
}
