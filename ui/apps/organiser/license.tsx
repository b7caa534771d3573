// The server edition's feature page (spec agency-side 2.6): license holder and validity, the
// features the license includes, each limit with the agency's usage, and how to order more —
// through support, at the configured address.
import { useState } from 'preact/hooks'
import { formatDate } from '../../../server/i18n/format'
import { useResource } from '../../components/hooks'
import { useUser } from '../../components/navigation-auth'
import { BookingModal, type LicenseOverview } from './booking-modal'
import { Alert, Badge, Card, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'


const number = (n: number) => n.toLocaleString('de-DE')

function LimitRow({ label, used, allowed, unit }: { label: string; used: number; allowed: number; unit?: 'mb' }) {
  const show = (n: number) => (unit === 'mb' ? t('license.limit.mb', { value: number(n) }) : number(n))
  const unlimited = allowed < 0
  const share = unlimited || allowed === 0 ? 0 : Math.min(1, used / allowed)
  const full = !unlimited && used >= allowed
  return (
    <li class="limit-row">
      <div class="limit-head">
        <span class="limit-label">{label}</span>
        <span class="limit-usage">
          {unlimited ? t('license.limit.unlimited', { used: show(used) }) : t('license.limit.usage', { used: show(used), allowed: show(allowed) })}
          {full && (
            <Badge tone="warn" class="limit-badge">
              {t('license.limit.exceeded')}
            </Badge>
          )}
        </span>
      </div>
      {!unlimited && (
        <div class={`license-meter ${full ? 'license-meter-full' : ''}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={allowed} aria-valuenow={used}>
          <span style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      )}
    </li>
  )
}

export function LicensePage() {
  const { data, error } = useResource<LicenseOverview>('/proxy/api/license')
  const details = useUser()
  const [booking, setBooking] = useState(false)
  if (error) return <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>
  if (!data) return <Spinner />
  const l = data.limits
  const licensed = data.edition === 'licensed'
  const mail = `mailto:${data.supportEmail}?subject=${encodeURIComponent(t('license.orderSubject'))}`
  return (
    <>
      <PageHeader title={t('license.title')} />
      <Card class="license-summary">
        <div class="license-grid">
          <div>
            <div class="muted">{t('license.edition')}</div>
            <Badge tone={licensed ? 'ok' : 'warn'}>{t(licensed ? 'license.edition.licensed' : 'license.edition.community')}</Badge>
          </div>
          <div>
            <div class="muted">{t('license.holder')}</div>
            <strong>{data.licensee ?? t('license.noHolder')}</strong>
          </div>
          <div>
            <div class="muted">{t('license.validUntil')}</div>
            <strong>{data.validUntil ? formatDate(`${data.validUntil}T12:00:00Z`) : '–'}</strong>
          </div>
        </div>
        {data.problem && (
          <div class="license-problem">
            <Alert tone="warn">{t(`license.problem.${data.problem}`, { date: data.validUntil ? formatDate(`${data.validUntil}T12:00:00Z`) : '' })}</Alert>
          </div>
        )}
      </Card>
      <div class="alert alert-info license-order" role="note">
        <p>{t('license.order', { email: data.supportEmail })}</p>
        <div class="license-order-actions">
          <button type="button" class="btn btn-primary" onClick={() => setBooking(true)}>
            {t('booking.title')}
          </button>
          <a class="btn btn-secondary" href={mail}>
            {t('license.orderButton')}
          </a>
        </div>
      </div>
      {booking && <BookingModal agencyName={details.user.currentAccount?.agency.displayName ?? ''} onClose={() => setBooking(false)} />}
      <div class="license-columns">
        <Card>
          <h2>{t('license.limits')}</h2>
          <ul class="limit-list">
            <LimitRow label={t('license.limit.events')} used={l.usedEvents} allowed={l.allowedEvents} />
            <LimitRow label={t('license.limit.guestAccounts')} used={l.usedGuestAccounts} allowed={l.allowedGuestAccounts} />
            <LimitRow label={t('license.limit.agencyUsers')} used={l.usedAgencyUsers} allowed={l.allowedAgencyUsers} />
            <LimitRow label={t('license.limit.storage')} used={l.usedStorage} allowed={l.allowedStorage} unit="mb" />
          </ul>
        </Card>
        <Card>
          <h2>{t('license.features')}</h2>
          <ul class="feature-list">
            {data.features.map((f) => (
              <li key={f.featureCode} class={`feature ${f.included ? 'feature-on' : 'feature-off'}`}>
                <div>
                  <div class="feature-name">{t(`license.feature.${f.featureCode}`)}</div>
                  <div class="muted feature-description">{t(`license.feature.${f.featureCode}.description`)}</div>
                </div>
                <Badge tone={f.included ? 'ok' : 'neutral'}>{t(f.everyEdition ? 'license.feature.everyEdition' : f.included ? 'license.feature.included' : 'license.feature.notIncluded')}</Badge>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </>
  )
}
