// The hint banner (agency-side.md 2.6, 8): limits reached or 90 % used, the licence ending within 30
// days, features the licence lacks (once per user, hidden on request) — each leading into the booking
// modal for who may book (AGENCY.ABO) — and the agency messages that need an action elsewhere (a
// payment webhook refused, mail settings invalid). While the agency is PAUSED the booking hints are
// hidden; in the entry-pass variant (SYSTEM_COVIDOO) the guest-account and feature hints are too.
import { useState } from 'preact/hooks'
import { formatDate } from '../../../server/i18n/format'
import { post } from '../../api/client'
import { useResource } from '../../components/hooks'
import { useUser } from '../../components/navigation-auth'
import { t } from '../../i18n'
import { BookingModal, type BookingChoice, LIMIT_OPTIONS, type LicenseOverview } from './booking-modal'

type LimitKey = 'Events' | 'GuestAccounts' | 'AgencyUsers' | 'Storage'
type AgencyMessage =
  | { agencyMessageType: 'LICENSE_EXPIRES'; validUntil: string; daysLeft: number }
  | { agencyMessageType: 'LIMIT_NEARLY_REACHED'; limit: 'events' | 'guestAccounts' | 'agencyUsers' | 'storage'; allowed: number; used: number }
  | { agencyMessageType: 'MAIL_SETTINGS_INVALID'; mailSettingsId: number; displayName: string }
  | { agencyMessageType: 'PAYMENT_WEBHOOK_FAILING'; paymentMethodId: number; since: string }

interface Init {
  pausedStatus: string | null
  limits: Record<`allowed${LimitKey}` | `used${LimitKey}`, number>
  agencyMessages?: AgencyMessage[]
}

const KINDS: Array<[LimitKey, 'events' | 'guestAccounts' | 'agencyUsers' | 'storage']> = [
  ['Events', 'events'],
  ['GuestAccounts', 'guestAccounts'],
  ['AgencyUsers', 'agencyUsers'],
  ['Storage', 'storage'],
]
const ENTRY_PASS = 'SYSTEM_COVIDOO'
const FEATURE_HINT_KEY = 'booking.featureHint'
const choiceOf = (key: LimitKey): BookingChoice => ({ featureType: LIMIT_OPTIONS.find((o) => o.key === key)!.type })

export function LimitBanner({ canBook }: { canBook: boolean }) {
  const details = useUser()
  const { data } = useResource<Init>('/proxy/api/app/init')
  const { data: license } = useResource<LicenseOverview>(canBook ? '/proxy/api/license' : null)
  const { data: hidden, reload: reloadHidden } = useResource<string[]>(canBook ? '/proxy/api/introduction' : null)
  const [booking, setBooking] = useState<BookingChoice | null | false>(false)
  if (!data) return null
  const entryPass = details.features.includes(ENTRY_PASS)
  const paused = data.pausedStatus === 'PAUSED'
  const shownKind = (k: LimitKey) => !(entryPass && k === 'GuestAccounts')
  const messages = data.agencyMessages ?? []
  const items: Array<{ key: string; text: string; action?: { label: string; choice?: BookingChoice | null; href?: string }; onDismiss?: () => void }> = []
  if (!paused) {
    for (const [k, key] of KINDS) {
      const allowed = data.limits[`allowed${k}`]
      const used = data.limits[`used${k}`]
      if (!shownKind(k)) continue
      if (allowed >= 0 && used >= allowed) items.push({ key: `reached-${k}`, text: t(`limits.exceeded.${key}`, { used, allowed }), action: canBook ? { label: t('limits.adjust'), choice: choiceOf(k) } : undefined })
      else {
        const nearly = messages.find((m) => m.agencyMessageType === 'LIMIT_NEARLY_REACHED' && m.limit === key)
        if (nearly) items.push({ key: `nearly-${k}`, text: t('booking.hint.nearly', { limit: t(`license.limit.${key}`), used, allowed }), action: canBook ? { label: t('limits.adjust'), choice: choiceOf(k) } : undefined })
      }
    }
    for (const m of messages) {
      if (m.agencyMessageType === 'LICENSE_EXPIRES') items.push({ key: 'expires', text: t('booking.hint.expires', { date: formatDate(`${m.validUntil}T12:00:00Z`) }), action: canBook ? { label: t('booking.hint.more'), choice: null } : undefined })
    }
    const missing = license?.features.filter((f) => !f.included && !f.everyEdition) ?? []
    if (canBook && !entryPass && missing.length && hidden && !hidden.includes(FEATURE_HINT_KEY)) {
      items.push({
        key: 'features',
        text: t('booking.hint.features', { features: missing.map((f) => t(`license.feature.${f.featureCode}`)).join(', ') }),
        action: { label: t('booking.hint.more'), choice: { featureType: 'FEATURE', featureCode: missing[0].featureCode } },
        onDismiss: () => void post('/proxy/api/introduction', [FEATURE_HINT_KEY]).then(reloadHidden),
      })
    }
  }
  for (const m of messages) {
    if (m.agencyMessageType === 'PAYMENT_WEBHOOK_FAILING' && !items.some((i) => i.key === 'webhook')) items.push({ key: 'webhook', text: t('booking.hint.webhook'), action: { label: t('booking.hint.paymentSettings'), href: '/agency/sales' } })
    if (m.agencyMessageType === 'MAIL_SETTINGS_INVALID') items.push({ key: `mail-${m.mailSettingsId}`, text: t('booking.hint.mail', { name: m.displayName }) })
  }
  if (!items.length && booking === false) return null
  return (
    <>
      {items.length > 0 && (
        <div class="limit-banner" role="status">
          <ul>
            {items.map((i) => (
              <li key={i.key} data-hint={i.key}>
                {i.text}{' '}
                {i.action &&
                  (i.action.href ? (
                    <a href={i.action.href}>{i.action.label}</a>
                  ) : (
                    <button type="button" class="btn-link" onClick={() => setBooking(i.action!.choice ?? null)}>
                      {i.action.label}
                    </button>
                  ))}
                {i.onDismiss && (
                  <>
                    {' · '}
                    <button type="button" class="btn-link" onClick={i.onDismiss}>
                      {t('booking.hint.dismiss')}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {booking !== false && <BookingModal agencyName={details.user.currentAccount?.agency.displayName ?? ''} initial={booking} onClose={() => setBooking(false)} />}
    </>
  )
}
