// Download tokens per kind (guest-side.md §3: downloadToken, downloadTokenIcs, downloadTokenWallet),
// each 160 random bits. The PDF token is written with every registration (download_token); the
// calendar and wallet tokens are created the first time a guest's dashboard shows the registration,
// so the registration hot path stays as it is. docs/guest-portal.md "Documents" lists the links.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { randomString } from '../identity/tokens'
import { ENTRY_PASS_FEATURE } from '../identity/dto'
import { type TicketBlock, ticketBlock } from '../checkin/ticket-validity'

/** Registrations with a ticket, calendar entry and wallet pass. */
export const REGISTERED_STATUSES = ['CONFIRMED', 'APPEARED'] as const
/** Registrations that may download the invitation PDF. */
export const INVITATION_STATUSES = ['INVITED', 'PENDING', 'OPEN', 'ADDED', 'CONFIRMED', 'APPEARED'] as const

export const isRegistered = (status: string) => (REGISTERED_STATUSES as readonly string[]).includes(status)

/** What a token looks like; anything else is refused before a query. */
export const TOKEN_SHAPE = /^[a-z2-7]{16,64}$/

export interface DocumentTokens {
  downloadToken?: string
  downloadTokenIcs?: string
  downloadTokenWallet?: string
  downloadLinkTicket?: string
  downloadLinkIcs?: string
  downloadLinkAppleWallet?: string
  downloadLinkGoogleWallet?: string
  downloadLinkNameTags?: string
  /** invited, pending and open registrations: the invitation PDF (the dashboard's download dialog) */
  downloadLinkInvitation?: string
}

export const downloadPath = (token: string, document?: string) => `/proxy/api/download/${token}${document ? `/${document}` : ''}`

export interface WalletAvailability {
  apple: boolean
  google: boolean
}

/** Which wallets each agency has set up (document_settings), in one query. */
export async function walletAvailability(db: Db, agencyIds: number[]): Promise<Map<number, WalletAvailability>> {
  const out = new Map<number, WalletAvailability>()
  if (!agencyIds.length) return out
  const rows = await db
    .selectFrom('document_settings')
    .select(['agency_id', 'apple_pass_type_id', 'apple_team_id', 'apple_certificate', 'apple_key_sealed', 'apple_wwdr', 'google_issuer_id', 'google_service_account', 'google_key_sealed'])
    .where('agency_id', 'in', [...new Set(agencyIds)])
    .execute()
  for (const r of rows) out.set(r.agency_id, walletOf(r))
  return out
}

export function walletOf(r: {
  apple_pass_type_id: string | null
  apple_team_id: string | null
  apple_certificate: string | null
  apple_key_sealed: string | null
  apple_wwdr: string | null
  google_issuer_id: string | null
  google_service_account: string | null
  google_key_sealed: string | null
}): WalletAvailability {
  return {
    apple: Boolean(r.apple_pass_type_id && r.apple_team_id && r.apple_certificate && r.apple_key_sealed && r.apple_wwdr),
    google: Boolean(r.google_issuer_id && r.google_service_account && r.google_key_sealed),
  }
}

/** Fills the calendar and wallet tokens of registrations that have none yet; returns them by id. */
export async function ensureKindTokens(db: Db, ids: number[]): Promise<Map<number, { ics: string; wallet: string }>> {
  const out = new Map<number, { ics: string; wallet: string }>()
  if (!ids.length) return out
  await db.transaction().execute(async (trx) => {
    for (const id of ids) {
      // coalesce: a concurrent first view keeps whichever tokens were written first
      await trx
        .updateTable('event_visitor')
        .set((eb) => ({
          download_token_ics: eb.fn.coalesce('download_token_ics', eb.val(randomString(20))),
          download_token_wallet: eb.fn.coalesce('download_token_wallet', eb.val(randomString(20))),
        }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('download_token_ics', 'is', null), eb('download_token_wallet', 'is', null)]))
        .execute()
    }
  })
  const rows = await db.selectFrom('event_visitor').select(['id', 'download_token_ics', 'download_token_wallet']).where('id', 'in', ids).execute()
  for (const r of rows) out.set(r.id, { ics: r.download_token_ics!, wallet: r.download_token_wallet! })
  return out
}

export interface TokenSource {
  v_id: number
  v_status: string
  agency_id: number
  v_download_token: string
  v_download_token_ics: string | null
  v_download_token_wallet: string | null
}

/**
 * The dashboard's `tokens` per registration: only the kinds that apply. Registered (CONFIRMED,
 * APPEARED): ticket PDF, calendar entry, name tags, and the wallet pass/link when the agency set them
 * up; under SYSTEM_COVIDOO only the entry-ticket PDF. Invited, pending and open registrations
 * (INVITATION_STATUSES that are not registered): the PDF token with the invitation's link, which the
 * dashboard's download dialog opens after prepareDownloadInvitation. Others: none.
 */
export async function dashboardTokens(ctx: AppContext, rows: TokenSource[], blocks: Map<number, TicketBlock> = new Map()): Promise<Map<number, DocumentTokens>> {
  const out = new Map<number, DocumentTokens>()
  const registered = rows.filter((r) => isRegistered(r.v_status))
  const entryPass = ctx.license.features.includes(ENTRY_PASS_FEATURE)
  const missing = entryPass ? [] : registered.filter((r) => !r.v_download_token_ics || !r.v_download_token_wallet).map((r) => r.v_id)
  const [filled, wallets] = await Promise.all([ensureKindTokens(ctx.db, missing), entryPass ? new Map<number, WalletAvailability>() : walletAvailability(ctx.db, registered.map((r) => r.agency_id))])
  for (const r of rows) {
    if (!isRegistered(r.v_status)) {
      const invited = (INVITATION_STATUSES as readonly string[]).includes(r.v_status) && !entryPass
      out.set(r.v_id, invited ? { downloadToken: r.v_download_token, downloadLinkInvitation: downloadPath(r.v_download_token, 'invitation') } : {})
      continue
    }
    if (entryPass) {
      out.set(r.v_id, blocks.has(r.v_id) ? {} : { downloadToken: r.v_download_token, downloadLinkTicket: downloadPath(r.v_download_token) })
      continue
    }
    const ics = r.v_download_token_ics ?? filled.get(r.v_id)!.ics
    // a ticket that is not valid (yet): the calendar entry only, no ticket documents (issue 20 B)
    if (blocks.has(r.v_id)) {
      out.set(r.v_id, { downloadTokenIcs: ics, downloadLinkIcs: downloadPath(ics) })
      continue
    }
    const walletToken = r.v_download_token_wallet ?? filled.get(r.v_id)!.wallet
    const w = wallets.get(r.agency_id) ?? { apple: false, google: false }
    const t: DocumentTokens = {
      downloadToken: r.v_download_token,
      downloadTokenIcs: ics,
      downloadLinkTicket: downloadPath(r.v_download_token),
      downloadLinkIcs: downloadPath(ics),
      downloadLinkNameTags: downloadPath(r.v_download_token, 'nameTags'),
    }
    if (w.apple || w.google) t.downloadTokenWallet = walletToken
    if (w.apple) t.downloadLinkAppleWallet = downloadPath(walletToken)
    if (w.google) t.downloadLinkGoogleWallet = downloadPath(walletToken, 'google')
    out.set(r.v_id, t)
  }
  return out
}

/**
 * Why each registered registration's ticket is not valid (yet), from its latest ticket order and its
 * event's invoice setting (checkin/ticket-validity.ts), in one query; registrations with a valid
 * ticket (or without an order) are not in the map.
 */
export async function ticketBlocks(db: Db, rows: Array<{ v_id: number; v_status: string; invoice_tickets: string }>): Promise<Map<number, TicketBlock>> {
  const out = new Map<number, TicketBlock>()
  const registered = rows.filter((r) => isRegistered(r.v_status))
  if (!registered.length) return out
  const orders = await db.selectFrom('ticket_order').select(['visitor_id', 'status', 'payment_method']).where('visitor_id', 'in', registered.map((r) => r.v_id)).orderBy('id').execute()
  const latest = new Map(orders.map((o) => [o.visitor_id!, o]))
  for (const r of registered) {
    const block = ticketBlock(latest.get(r.v_id), r.invoice_tickets)
    if (block) out.set(r.v_id, block)
  }
  return out
}
