// What app/init tells the truth about (agency-side §3 App info, §7 app/init): the licence as the
// server edition's subscription (abos), whether the configured licence failed (invoiceSettingsFailed)
// and the agency messages the organiser should act on, each from a real condition:
//   LICENSE_EXPIRES        the licence ends within 30 days (validUntil, daysLeft)
//   LIMIT_NEARLY_REACHED   a licensed limit is 90 % used or more (limit, allowed, used)
//   MAIL_SETTINGS_INVALID  an agency mail setting is marked invalid (registered by the mail settings module)
//   PAYMENT_WEBHOOK_FAILING a payment method's latest webhook call was refused (paymentMethodId, since)
import type { AppContext } from '../../context'
import type { LicenseState } from '../license/license'
import type { LimitsDto } from '../limits/service'
import { failingWebhooks } from '../payments/webhook-health'

export const LICENSE_EXPIRY_WARNING_DAYS = 30
export const LIMIT_WARNING_SHARE = 0.9

export type AgencyMessage =
  | { agencyMessageType: 'LICENSE_EXPIRES'; validUntil: string; daysLeft: number }
  | { agencyMessageType: 'LIMIT_NEARLY_REACHED'; limit: 'events' | 'guestAccounts' | 'agencyUsers' | 'storage'; allowed: number; used: number }
  | { agencyMessageType: 'MAIL_SETTINGS_INVALID'; mailSettingsId: number; displayName: string }
  | { agencyMessageType: 'PAYMENT_WEBHOOK_FAILING'; paymentMethodId: number; since: string }

/**
 * Sources of agency messages other modules own. The mail settings module (issue 23, `mailsender`)
 * registers one answering its settings whose mailSettingsStatus is invalid, as MAIL_SETTINGS_INVALID.
 */
export const agencyMessageSources: Array<(ctx: AppContext, agencyId: number) => Promise<AgencyMessage[]>> = []

/** The server edition's "subscription": the licence (or the community edition without one). */
export function abosOf(license: LicenseState) {
  return [
    {
      aboType: license.edition === 'licensed' ? 'SERVER_LICENSE' : 'COMMUNITY',
      licensee: license.licensee,
      validUntil: license.edition === 'licensed' ? license.validUntil : null,
      features: license.features,
      limits: license.limits,
      additionalEvents: 0,
      additionalAccounts: 0,
      additionalAgencyUsers: 0,
      link: null,
      priceNetto: null,
    },
  ]
}

/** A licence file was configured but does not hold (expired, changed, unreadable): the app leads to the licence page. */
export const invoiceSettingsFailed = (license: LicenseState) => license.problem != null && license.problem !== 'NO_FILE'

const DAY = 24 * 3600_000

export async function agencyMessages(ctx: AppContext, agencyId: number, limits: LimitsDto): Promise<AgencyMessage[]> {
  const out: AgencyMessage[] = []
  const l = ctx.license
  if (l.edition === 'licensed' && l.validUntil) {
    const end = new Date(`${l.validUntil}T23:59:59.999Z`).getTime()
    // whole days after today the licence still runs (0: today is its last day)
    const daysLeft = Math.floor((end - ctx.clock.now().getTime()) / DAY)
    if (daysLeft <= LICENSE_EXPIRY_WARNING_DAYS) out.push({ agencyMessageType: 'LICENSE_EXPIRES', validUntil: l.validUntil, daysLeft })
  }
  const pairs = [
    ['events', limits.allowedEvents, limits.usedEvents],
    ['guestAccounts', limits.allowedGuestAccounts, limits.usedGuestAccounts],
    ['agencyUsers', limits.allowedAgencyUsers, limits.usedAgencyUsers],
    ['storage', limits.allowedStorage, limits.usedStorage],
  ] as const
  for (const [limit, allowed, used] of pairs) if (allowed > 0 && used >= allowed * LIMIT_WARNING_SHARE) out.push({ agencyMessageType: 'LIMIT_NEARLY_REACHED', limit, allowed, used })
  for (const source of agencyMessageSources) out.push(...(await source(ctx, agencyId)))
  for (const w of await failingWebhooks(ctx, agencyId)) out.push({ agencyMessageType: 'PAYMENT_WEBHOOK_FAILING', ...w })
  return out
}
