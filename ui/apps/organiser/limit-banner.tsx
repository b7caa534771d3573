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
import { type BannerInput, type LimitKey, bannerHints } from './banner-hints'
import { BookingModal, type BookingChoice, LIMIT_OPTIONS, type LicenseOverview } from './booking-modal'

const ENTRY_PASS = 'SYSTEM_COVIDOO'
const FEATURE_HINT_KEY = 'booking.featureHint'
const choiceOf = (key: LimitKey): BookingChoice => ({ featureType: LIMIT_OPTIONS.find((o) => o.key === key)!.type })

export function LimitBanner({ canBook }: { canBook: boolean }) {
  const details = useUser()
  const { data } = useResource<BannerInput>('/proxy/api/app/init')
  const { data: license } = useResource<LicenseOverview>(canBook ? '/proxy/api/license' : null)
  const { data: hidden, reload: reloadHidden } = useResource<string[]>(canBook ? '/proxy/api/introduction' : null)
  const [booking, setBooking] = useState<BookingChoice | null | false>(false)
  if (!data) return null
  const entryPass = details.features.includes(ENTRY_PASS)
  const missing = canBook && hidden && !hidden.includes(FEATURE_HINT_KEY) ? (license?.features.filter((f) => !f.included && !f.everyEdition).map((f) => f.featureCode) ?? null) : null
  const items: Array<{ key: string; text: string; action?: { label: string; choice?: BookingChoice | null; href?: string }; onDismiss?: () => void }> = bannerHints(data, { entryPass, missingFeatures: missing }).map((h) => {
    switch (h.kind) {
      case 'reached':
      case 'nearly':
        return {
          key: `${h.kind}-${h.key}`,
          text: h.kind === 'reached' ? t(`limits.exceeded.${h.name}`, { used: h.used, allowed: h.allowed }) : t('booking.hint.nearly', { limit: t(`license.limit.${h.name}`), used: h.used, allowed: h.allowed }),
          action: canBook ? { label: t('limits.adjust'), choice: choiceOf(h.key) } : undefined,
        }
      case 'expires':
        return { key: 'expires', text: t('booking.hint.expires', { date: formatDate(`${h.validUntil}T12:00:00Z`) }), action: canBook ? { label: t('booking.hint.more'), choice: null } : undefined }
      case 'features':
        return {
          key: 'features',
          text: t('booking.hint.features', { features: h.codes.map((c) => t(`license.feature.${c}`)).join(', ') }),
          action: { label: t('booking.hint.more'), choice: { featureType: 'FEATURE', featureCode: h.codes[0] } },
          onDismiss: () => void post('/proxy/api/introduction', [FEATURE_HINT_KEY]).then(reloadHidden),
        }
      case 'webhook':
        return { key: 'webhook', text: t('booking.hint.webhook'), action: { label: t('booking.hint.paymentSettings'), href: '/agency/sales' } }
      case 'mail':
        return { key: `mail-${h.mailSettingsId}`, text: t('booking.hint.mail', { name: h.displayName }) }
    }
  })
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
