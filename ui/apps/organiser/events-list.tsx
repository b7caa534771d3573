import { Link } from 'wouter'
import { formatDateTime } from '../../../server/i18n/format'
import { useResource } from '../../components/hooks'
import { Alert, Badge, EmptyState, LinkButton, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'

export interface EventSummary {
  id: number
  displayName: string
  subTitle: string | null
  startDate: string
  endDate: string
  timezone: string
  eventType: string
  address: { locationName: string | null; city: string | null }
  visibility: string
  maxVisitors: number | null
  seatsTaken: number
  registrationState: string
}

export function placesText(e: Pick<EventSummary, 'maxVisitors' | 'seatsTaken'>) {
  return e.maxVisitors == null ? t('events.placesUnlimited', { taken: e.seatsTaken }) : t('events.places', { taken: e.seatsTaken, max: e.maxVisitors })
}

export function EventsList() {
  const { data, error } = useResource<EventSummary[]>('/proxy/api/events')
  return (
    <>
      <PageHeader title={t('events.title')} actions={<LinkButton href="/events/new">{t('events.new')}</LinkButton>} />
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.length === 0 && <EmptyState>{t('events.empty')}</EmptyState>}
      {data && data.length > 0 && (
        <ul class="event-list">
          {data.map((e) => (
            <li key={e.id} class="card event-row">
              <div>
                <Link href={`/events/${e.id}`} class="event-title">
                  {e.displayName}
                </Link>
                <div class="muted">
                  {formatDateTime(e.startDate, e.timezone)} · {e.eventType === 'ONLINE' ? t('events.online') : [e.address.locationName, e.address.city].filter(Boolean).join(', ')}
                </div>
              </div>
              <div class="event-row-side">
                <Badge tone={e.registrationState === 'OPEN' ? 'ok' : 'warn'}>{t(`events.registrationState.${e.registrationState}`)}</Badge>
                <span class="muted">{placesText(e)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
