// Which hints the organiser's banner shows (limit-banner.tsx), as a pure function so the rules are
// tested (server/modules/license/banner-hints.test.ts): booking hints (limits reached or 90 % used,
// the licence ending, features the licence lacks) are hidden while the agency is PAUSED; in the
// entry-pass variant the guest-account limit and the feature hints are hidden; the operational
// hints (a payment webhook refused, mail settings invalid) always show.
export type LimitKey = 'Events' | 'GuestAccounts' | 'AgencyUsers' | 'Storage'
export type LimitName = 'events' | 'guestAccounts' | 'agencyUsers' | 'storage'
export type AgencyMessage =
  | { agencyMessageType: 'LICENSE_EXPIRES'; validUntil: string; daysLeft: number }
  | { agencyMessageType: 'LIMIT_NEARLY_REACHED'; limit: LimitName; allowed: number; used: number }
  | { agencyMessageType: 'MAIL_SETTINGS_INVALID'; mailSettingsId: number; displayName: string }
  | { agencyMessageType: 'PAYMENT_WEBHOOK_FAILING'; paymentMethodId: number; since: string }

export interface BannerInput {
  pausedStatus: string | null
  limits: Record<`allowed${LimitKey}` | `used${LimitKey}`, number>
  agencyMessages?: AgencyMessage[]
}

export type Hint =
  | { kind: 'reached' | 'nearly'; key: LimitKey; name: LimitName; used: number; allowed: number }
  | { kind: 'expires'; validUntil: string }
  | { kind: 'features'; codes: string[] }
  | { kind: 'webhook' }
  | { kind: 'mail'; mailSettingsId: number; displayName: string }

export const LIMIT_KINDS: Array<[LimitKey, LimitName]> = [
  ['Events', 'events'],
  ['GuestAccounts', 'guestAccounts'],
  ['AgencyUsers', 'agencyUsers'],
  ['Storage', 'storage'],
]

/** `missingFeatures`: licensed features the licence lacks, null when not known or the hint is hidden by the user. */
export function bannerHints(init: BannerInput, opts: { entryPass: boolean; missingFeatures: string[] | null }): Hint[] {
  const out: Hint[] = []
  const messages = init.agencyMessages ?? []
  if (init.pausedStatus !== 'PAUSED') {
    for (const [key, name] of LIMIT_KINDS) {
      if (opts.entryPass && key === 'GuestAccounts') continue
      const allowed = init.limits[`allowed${key}`]
      const used = init.limits[`used${key}`]
      if (allowed >= 0 && used >= allowed) out.push({ kind: 'reached', key, name, used, allowed })
      else if (messages.some((m) => m.agencyMessageType === 'LIMIT_NEARLY_REACHED' && m.limit === name)) out.push({ kind: 'nearly', key, name, used, allowed })
    }
    for (const m of messages) if (m.agencyMessageType === 'LICENSE_EXPIRES') out.push({ kind: 'expires', validUntil: m.validUntil })
    if (!opts.entryPass && opts.missingFeatures?.length) out.push({ kind: 'features', codes: opts.missingFeatures })
  }
  if (messages.some((m) => m.agencyMessageType === 'PAYMENT_WEBHOOK_FAILING')) out.push({ kind: 'webhook' })
  for (const m of messages) if (m.agencyMessageType === 'MAIL_SETTINGS_INVALID') out.push({ kind: 'mail', mailSettingsId: m.mailSettingsId, displayName: m.displayName })
  return out
}
