// The guest application: the dashboard (registrations grouped into pending, registered, invited,
// open and declined), the guest account area and the open no-permission page with the access link.
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-rest'
import { Redirect, Route, Switch } from 'wouter'
import { formatDate, formatTime } from '../../../server/i18n/format'
import { useResource } from '../../components/hooks'
import { GuestShell } from '../../components/layout'
import { NavigationAuth } from '../../components/navigation-auth'
import { Alert, Badge, Card, LinkButton, Spinner } from '../../components/ui'
import { t, useLanguage } from '../../i18n'
import { RegistrationExtras } from './ticket-qr'
import { AccountArea } from '../account'
import { GuestNoPermission } from './nopermission'

interface GuestEvent {
  id: number
  eventToken: string
  registrationStatus: { status: string }
  visitorCount: number
  waitingListPosition?: number | null
  /** REQUIRED agreements not signed yet */
  missingAgreements?: Array<{ id: number; displayName: string }>
  event: {
    id: number
    displayName: string
    subTitle: string | null
    startDate: string
    timezone: string
    eventType: string
    address: { locationName: string | null; city: string | null }
    url: string
  }
}
type Lists = Record<'pendingEvents' | 'confirmedEvents' | 'invitedEvents' | 'openEvents' | 'declinedEvents', GuestEvent[]>
const ORDER: Array<keyof Lists> = ['pendingEvents', 'confirmedEvents', 'invitedEvents', 'openEvents', 'declinedEvents']
const BY_MONTH = new Set<keyof Lists>(['invitedEvents', 'openEvents', 'declinedEvents'])

function EventCard({ e }: { e: GuestEvent }) {
  const place = e.event.eventType === 'ONLINE' ? t('events.online') : [e.event.address.locationName, e.event.address.city].filter(Boolean).join(', ')
  return (
    <li class="card guest-event">
      <div>
        <h3>{e.event.displayName}</h3>
        {e.event.subTitle && <p class="muted">{e.event.subTitle}</p>}
        <p>
          {formatDate(e.event.startDate, e.event.timezone)}, {formatTime(e.event.startDate, e.event.timezone)} {place && `· ${place}`}
        </p>
        <p class="muted">
          <Badge tone={e.registrationStatus.status === 'CONFIRMED' ? 'ok' : 'info'}>{t(`visitorStatus.${e.registrationStatus.status}`)}</Badge> {e.visitorCount === 1 ? t('guest.person') : t('guest.persons', { n: e.visitorCount })}
          {e.waitingListPosition ? ` · ${t('guest.waitingListPosition', { n: e.waitingListPosition })}` : ''}
        </p>
        {e.missingAgreements && e.missingAgreements.length > 0 && (
          <ul class="guest-missing-agreements">
            {e.missingAgreements.map((a) => (
              <li key={a.id}>{t('guest.agreementMissing', { name: a.displayName })}</li>
            ))}
          </ul>
        )}
      </div>
      <RegistrationExtras entry={e} />
      <LinkButton href={`/public/event/${e.event.id}`} variant="secondary">
        {t('guest.toEvent')}
      </LinkButton>
    </li>
  )
}

function monthLabel(iso: string) {
  return new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric', timeZone: 'Europe/Berlin' }).format(new Date(iso))
}

function Section({ list, items }: { list: keyof Lists; items: GuestEvent[] }) {
  const groups = new Map<string, GuestEvent[]>()
  for (const e of items) {
    const k = BY_MONTH.has(list) ? monthLabel(e.event.startDate) : ''
    groups.set(k, [...(groups.get(k) ?? []), e])
  }
  return (
    <section class={`guest-section ${list === 'pendingEvents' ? 'important' : ''}`} aria-labelledby={`h-${list}`}>
      <h2 id={`h-${list}`}>
        {t(`guest.list.${list}`)} <span class="count">{items.length}</span>
      </h2>
      {list === 'pendingEvents' && <Alert tone="warn">{t('guest.list.pendingEvents.prompt')}</Alert>}
      {[...groups].map(([month, es]) => (
        <div key={month}>
          {month && <h3 class="month">{month}</h3>}
          <ul class="guest-events">
            {es.map((e) => (
              <EventCard key={e.id} e={e} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  )
}

function Dashboard() {
  useLanguage()
  const { data, error } = useResource<Lists>('/proxy/api/guest/events')
  return (
    <>
      <h1>{t('guest.dashboard.title')}</h1>
      {error && <Alert tone="error">{error.status === 401 ? t('guest.noAccess') : error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && ORDER.every((l) => data[l].length === 0) && <Card>{t('guest.empty')}</Card>}
      {data && ORDER.filter((l) => data[l].length > 0).map((l) => <Section key={l} list={l} items={data[l]} />)}
    </>
  )
}

/** Pages with security: a loaded guest (link token or session), otherwise the no-permission page. */
function SecuredGuestPages() {
  return (
    <NavigationAuth view="guest">
      <GuestShell>
        <Switch>
          <Route path="/guest/dashboard" component={Dashboard} />
          <Route path="/guest/account" component={AccountArea} />
          <Route path="/guest/account/*" component={AccountArea} />
          <Route>
            <Redirect to={`/guest/dashboard${location.search}`} replace />
          </Route>
        </Switch>
      </GuestShell>
    </NavigationAuth>
  )
}

export default function GuestApp() {
  return (
    <Switch>
      <Route path="/guest/nopermission" component={GuestNoPermission} />
      <Route component={SecuredGuestPages} />
    </Switch>
  )
}
