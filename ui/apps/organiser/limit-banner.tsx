// The hint banner for license limits that are reached (agency-side.md 2.6, 8), with the adjust link.
// Hidden while the agency is PAUSED (booking hints are hidden then).
import { useResource } from '../../components/hooks'
import { t } from '../../i18n'

interface Init {
  pausedStatus: string | null
  limits: Record<'allowedEvents' | 'usedEvents' | 'allowedGuestAccounts' | 'usedGuestAccounts' | 'allowedAgencyUsers' | 'usedAgencyUsers' | 'allowedStorage' | 'usedStorage', number>
}

const KINDS = [
  ['Events', 'events'],
  ['GuestAccounts', 'guestAccounts'],
  ['AgencyUsers', 'agencyUsers'],
  ['Storage', 'storage'],
] as const

export function LimitBanner({ adjustHref }: { adjustHref: string | null }) {
  const { data } = useResource<Init>('/proxy/api/app/init')
  if (!data || data.pausedStatus === 'PAUSED') return null
  const hit = KINDS.filter(([k]) => {
    const allowed = data.limits[`allowed${k}`]
    return allowed >= 0 && data.limits[`used${k}`] >= allowed
  })
  if (!hit.length) return null
  return (
    <div class="limit-banner" role="status">
      <ul>
        {hit.map(([k, key]) => (
          <li key={k}>{t(`limits.exceeded.${key}`, { used: data.limits[`used${k}`], allowed: data.limits[`allowed${k}`] })}</li>
        ))}
      </ul>
      {adjustHref && (
        <a class="btn btn-secondary" href={adjustHref}>
          {t('limits.adjust')}
        </a>
      )}
    </div>
  )
}
