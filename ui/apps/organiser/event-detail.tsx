import { useState } from 'preact/hooks'
import { formatDateTime } from '../../../server/i18n/format'
import { useResource } from '../../components/hooks'
import { Alert, Badge, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { type EventSummary, placesText } from './events-list'

interface VisitorRow {
  id: number
  status: string
  salutation: string | null
  firstName: string | null
  lastName: string | null
  email: string | null
  visitorCount: number
  registeredAt: string | null
}

export function EventDetail({ id }: { id: number }) {
  const { data: event, error } = useResource<EventSummary & { url: string }>(`/proxy/api/events/${id}`)
  const [search, setSearch] = useState('')
  const { data: guests } = useResource<{ items: VisitorRow[]; total: number }>(`/proxy/api/events/${id}/visitors?search=${encodeURIComponent(search)}`)
  if (error) return <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>
  if (!event) return <Spinner />
  return (
    <>
      <PageHeader
        title={event.displayName}
        subtitle={`${formatDateTime(event.startDate, event.timezone)} · ${event.eventType === 'ONLINE' ? t('events.online') : [event.address.locationName, event.address.city].filter(Boolean).join(', ')}`}
        actions={
          <>
            <a class="btn btn-secondary" href={`/events/${event.id}/form`}>
              {t('formBuilder.openForm')}
            </a>
            <a class="btn btn-secondary" href={`/public/event/${event.id}`} target="_blank" rel="noopener">
              {t('events.publicPage')}
            </a>
          </>
        }
      />
      <Card>
        <div class="stat-row">
          <Badge tone={event.registrationState === 'OPEN' ? 'ok' : 'warn'}>{t(`events.registrationState.${event.registrationState}`)}</Badge>
          <span>{placesText(event)}</span>
          <span class="muted">{event.url}</span>
        </div>
      </Card>
      <Card>
        <div class="card-head">
          <h2>{t('events.guests')}</h2>
          <label class="search">
            <span class="sr-only">{t('common.search')}</span>
            <input type="search" placeholder={t('common.search')} value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
          </label>
        </div>
        {!guests && <Spinner />}
        {guests && guests.items.length === 0 && <EmptyState>{t('guest.empty')}</EmptyState>}
        {guests && guests.items.length > 0 && (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th>{t('registration.lastName')}</th>
                  <th>{t('registration.firstName')}</th>
                  <th>{t('registration.email')}</th>
                  <th>{t('registration.escorts')}</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {guests.items.map((g) => (
                  <tr key={g.id}>
                    <td>{g.lastName}</td>
                    <td>{g.firstName}</td>
                    <td>{g.email}</td>
                    <td>{g.visitorCount - 1}</td>
                    <td>
                      <Badge tone={g.status === 'CONFIRMED' ? 'ok' : 'info'}>{t(`visitorStatus.${g.status}`)}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  )
}
