// One event: a tab bar (overview, guests, check-in, statistics, agreements, settings) and the overview
// with key figures, the public link and the actions (copy, save as preset, archive, delete, embed).
import { useState } from 'preact/hooks'
import { SenderWidget } from './mail/sender-widget'
import { useLocation } from 'wouter'
import { formatDateTime } from '../../../server/i18n/format'
import { errorText, post, del } from '../../api/client'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { AgreementsTab } from './agreements'
import { CheckinDesk } from './checkin-desk'
import { CheckinListsEditor } from './checkin-lists'
import { CheckinConflicts } from './checkin-conflicts'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { hasFeature, StatusBadge, Tabs, usePermission, usePostResource } from './common'
import { EmbedDialog } from './embed-dialog'
import { EventForm } from './event-form'
import { EventTranslationsTab } from './event-translations'
import { GuestList } from './guests'
import { SeatingTab } from './seating'
import { StatisticsTab } from './statistics'
import { TicketsTab } from './tickets'
import { useUser } from './user'
import { type EventFull, placeOf, placesText } from './event-model'

const TABS = ['overview', 'guests', 'tickets', 'checkin', 'statistics', 'agreements', 'seating', 'edit', 'translations'] as const

export function EventPage({ id, tab }: { id: number; tab?: string }) {
  const active = (TABS as readonly string[]).includes(tab ?? '') ? tab! : 'overview'
  const { data: event, error, reload } = useResource<EventFull>(`/proxy/api/events/${id}`)
  const canEdit = usePermission('EVENT.EDIT')
  const canGuests = usePermission('EVENT.GUEST.VIEW')
  const canCheckin = usePermission('EVENT.CHECKIN')
  const canStats = usePermission('EVENT.STATISTICS')
  const canGuestManage = usePermission('EVENT.GUEST.MANAGE')
  if (error) return <Alert tone="error">{errorText(error)}</Alert>
  if (!event) return <Spinner />
  const base = `/events/${id}`
  const items = [
    { key: 'overview', href: base, label: t('events.tab.overview') },
    ...(canGuests ? [{ key: 'guests', href: `${base}/guests`, label: t('events.tab.guests') }] : []),
    { key: 'tickets', href: `${base}/tickets`, label: t('ticketing.admin.tab') },
    ...(canCheckin ? [{ key: 'checkin', href: `${base}/checkin`, label: t('events.tab.checkin') }] : []),
    ...(canStats ? [{ key: 'statistics', href: `${base}/statistics`, label: t('events.tab.statistics') }] : []),
    ...(canGuests ? [{ key: 'agreements', href: `${base}/agreements`, label: t('events.tab.agreements') }] : []),
    ...(canEdit ? [{ key: 'seating', href: `${base}/seating`, label: t('events.tab.seating') }] : []),
    ...(canEdit ? [{ key: 'edit', href: `${base}/edit`, label: t('events.tab.edit') }] : []),
    ...(canEdit ? [{ key: 'translations', href: `${base}/translations`, label: t('events.tab.translations') }] : []),
  ]
  return (
    <>
      <PageHeader
        title={event.displayName}
        subtitle={`${formatDateTime(event.startDate, event.timezone)} · ${placeOf(event)}`}
        actions={
          <>
            {canEdit && (
              <a class="btn btn-secondary" href={`/events/${event.id}/form`}>
                {t('formBuilder.openForm')}
              </a>
            )}
            {canGuestManage && (
              <a class="btn btn-secondary" href={`/events/${event.id}/register`}>
                {t('formBuilder.registerGuest')}
              </a>
            )}
          </>
        }
      />
      <Tabs items={items} active={active} />
      {active === 'overview' && <Overview event={event} reload={reload} />}
      {active === 'guests' && <GuestList event={event} reloadEvent={reload} />}
      {active === 'tickets' && <TicketsTab event={event} />}
      {active === 'checkin' && <CheckinDesk event={event} />}
      {active === 'checkin' && <CheckinConflicts event={event} />}
      {active === 'statistics' && <StatisticsTab event={event} />}
      {active === 'agreements' && <AgreementsTab event={event} />}
      {active === 'seating' && canEdit && <SeatingTab event={event} />}
      {active === 'translations' && canEdit && <EventTranslationsTab event={event} />}
      {active === 'edit' && (
        <>
          <EventForm key={event.id} event={event} onSaved={() => void reload()} />
          <CheckinListsEditor event={event} />
          <SenderWidget level="event" path={`/proxy/api/events/${event.id}/mailSender`} />
        </>
      )}
    </>
  )
}

function Overview({ event, reload }: { event: EventFull; reload(): Promise<void> }) {
  const [, navigate] = useLocation()
  const user = useUser()
  const [dialog, setDialog] = useState<'delete' | 'embed' | null>(null)
  const [busy, setBusy] = useState(false)
  const canCreate = usePermission('EVENT.CREATE')
  const canEdit = usePermission('EVENT.EDIT')
  const canDelete = usePermission('EVENT.DELETE')
  const canEmbed = usePermission('EVENT.GUEST.MANAGE')
  const presets = hasFeature(user.features, 'EVENT_PRESET')
  const act = async (f: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await f()
      toast(done)
      await reload()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    } finally {
      setBusy(false)
    }
  }
  const copy = async (status: 'OK' | 'PRESET') => {
    setBusy(true)
    try {
      const c = await post<EventFull>(`/proxy/api/events/${event.id}/copy`, { status, displayName: status === 'OK' ? t('events.copyName', { name: event.displayName }) : event.displayName })
      toast(status === 'OK' ? t('events.copied') : t('events.savedAsPreset'))
      navigate(status === 'OK' ? `/events/${c.id}/edit` : `/events/${c.id}`)
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    } finally {
      setBusy(false)
    }
  }
  const deleted = event.status === 'DELETED'
  return (
    <>
      {event.incomplete.length > 0 && (
        <Alert tone="warn">
          {t('events.incomplete')}: {event.incomplete.map((r) => t(`events.incomplete.${r}`)).join(', ')}
        </Alert>
      )}
      {deleted && <Alert tone="error">{t('events.isDeleted')}</Alert>}
      <div class="overview-grid">
        <Card>
          <h2>{t('events.overview.registration')}</h2>
          <p>
            <Badge tone={event.registrationState === 'OPEN' ? 'ok' : 'warn'}>{t(`events.stateBadge.${event.registrationState}`)}</Badge>{' '}
            <Badge>{t(`events.visibility.${event.visibility}`)}</Badge> {event.archived && <Badge tone="info">{t('events.archived')}</Badge>}{' '}
            {event.status !== 'OK' && <Badge tone="info">{t(`status.event.${event.status}`)}</Badge>}
          </p>
          <p class="big-number">{placesText(event)}</p>
          <p class="muted break">{event.url}</p>
          <div class="button-row">
            <a class="btn btn-secondary" href={`/public/event/${event.id}`} target="_blank" rel="noopener">
              {t('events.publicPage')}
            </a>
            {canEmbed && (
              <Button variant="secondary" onClick={() => setDialog('embed')}>
                {t('events.embed')}
              </Button>
            )}
          </div>
        </Card>
        <Card>
          <h2>{t('events.overview.actions')}</h2>
          <div class="button-col">
            {canCreate && !deleted && (
              <Button variant="secondary" busy={busy} onClick={() => void copy('OK')}>
                {t('events.copy')}
              </Button>
            )}
            {canCreate && presets && !deleted && event.status === 'OK' && (
              <Button variant="secondary" busy={busy} onClick={() => void copy('PRESET')}>
                {t('events.saveAsPreset')}
              </Button>
            )}
            {canEdit && !deleted && (
              <Button variant="secondary" busy={busy} onClick={() => void act(() => post(`/proxy/api/events/${event.id}/${event.archived ? 'unarchive' : 'archive'}`), event.archived ? t('events.unarchived') : t('events.archivedDone'))}>
                {event.archived ? t('events.unarchive') : t('events.archive')}
              </Button>
            )}
            {canDelete && !deleted && (
              <Button variant="danger" onClick={() => setDialog('delete')}>
                {t('events.delete')}
              </Button>
            )}
            {canDelete && deleted && (
              <Button busy={busy} onClick={() => void act(() => post(`/proxy/api/events/${event.id}/restore`), t('events.restored'))}>
                {t('events.restore')}
              </Button>
            )}
          </div>
        </Card>
        {(event.tags.length > 0 || event.campaigns.length > 0) && (
          <Card>
            <h2>{t('events.field.tags')}</h2>
            <div class="chips">
              {event.tags.map((x) => (
                <span key={`t${x.id}`} class="chip">
                  {x.displayName}
                </span>
              ))}
              {event.campaigns.map((x) => (
                <span key={`c${x.id}`} class="chip chip-campaign">
                  {x.displayName}
                </span>
              ))}
            </div>
          </Card>
        )}
      </div>
      {usePermission('EVENT.GUEST.VIEW') && <LatestGuests event={event} />}
      {dialog === 'delete' && (
        <ConfirmDialog title={t('events.delete')} confirmLabel={t('events.delete')} danger onClose={() => setDialog(null)} onConfirm={async () => {
          await del(`/proxy/api/events/${event.id}`)
          toast(t('events.deleted'))
          navigate('/events')
        }}>
          <p>{t('events.deleteConfirm', { name: event.displayName })}</p>
        </ConfirmDialog>
      )}
      {dialog === 'embed' && <EmbedDialog event={event} onClose={() => setDialog(null)} />}
    </>
  )
}

/** The latest registrations at a glance; the full list is the Gäste tab. */
function LatestGuests({ event }: { event: EventFull }) {
  const { data } = usePostResource<{ items: Array<{ id: number; firstName: string | null; lastName: string | null; email: string | null; status: string; visitorCount: number }>; total: number }>(
    `/proxy/api/events/${event.id}/visitors/search`,
    { sort: { field: 'createdAt', direction: 'desc' }, perPage: 5 },
  )
  if (!data || data.total === 0) return null
  return (
    <Card>
      <div class="card-head">
        <h2>{t('events.latestGuests')}</h2>
        <a href={`/events/${event.id}/guests`}>{t('events.allGuests', { n: data.total })}</a>
      </div>
      <div class="table-wrap">
        <table class="table">
          <tbody>
            {data.items.map((g) => (
              <tr key={g.id}>
                <td>{g.lastName}</td>
                <td>{g.firstName}</td>
                <td>{g.email}</td>
                <td>
                  <StatusBadge status={g.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
