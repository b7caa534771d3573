// The guest dashboard (guest-side.md 2, "Guest events list"): tabs events / notifications (the choice
// is remembered for the session; no notifications under SYSTEM_COVIDOO), sections pending (important,
// with the prompt to activate), registered, invited, open and declined with count badges; invited,
// open and declined grouped by month and sorted by start date. The card options are in options.tsx.
import { useState } from 'preact/hooks'
import { useLocation } from 'wouter'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn, intlLocale } from '../../../server/i18n/locale-format'
import { useResource } from '../../components/hooks'
import { useAuth } from '../../components/navigation-auth'
import { Alert, Card, Spinner } from '../../components/ui'
import { currentLanguage, t, useLanguage } from '../../i18n'
import { GuestExtras } from './extras'
import { Notifications } from './notifications'
import { type GuestEntry, PendingOptions, RegisteredOptions, OtherOptions } from './options'

type ListName = 'pendingEvents' | 'confirmedEvents' | 'invitedEvents' | 'openEvents' | 'declinedEvents'
export type Lists = Record<ListName, GuestEntry[]>
const ORDER: ListName[] = ['pendingEvents', 'confirmedEvents', 'invitedEvents', 'openEvents', 'declinedEvents']
const BY_MONTH = new Set<ListName>(['invitedEvents', 'openEvents', 'declinedEvents'])
const TAB_KEY = 'einlass.guestTab'

export const isEntryPass = (features: readonly string[]) => features.includes('SYSTEM_COVIDOO')

function rememberedTab(): 'events' | 'notifications' {
  try {
    return sessionStorage.getItem(TAB_KEY) === 'notifications' ? 'notifications' : 'events'
  } catch {
    return 'events'
  }
}

function EventCard({ e, list, reload, entryPass }: { e: GuestEntry; list: ListName; reload(): Promise<void>; entryPass: boolean }) {
  // a registration deleted with its cancelled or refunded order: its state instead of "Gelöscht"
  const ended = e.registrationStatus.status === 'DELETED' && (e.ticketBlocked === 'CANCELED' || e.ticketBlocked === 'REFUNDED')
  const place = e.event.eventType === 'ONLINE' ? t('guestPortal.online') : [e.event.address.locationName, e.event.address.city].filter(Boolean).join(', ')
  return (
    <li class="card guest-event" data-testid={`guest-event-${e.id}`}>
      <div class="guest-event-head">
        <h3>{e.event.displayName}</h3>
        {e.event.subTitle && <p class="muted">{e.event.subTitle}</p>}
        <p class="guest-event-when">
          {formatDateIn(currentLanguage(), e.event.startDate, e.event.timezone)}, {formatTime(e.event.startDate, e.event.timezone)}
          {place && <span class={e.event.eventType === 'ONLINE' ? 'guest-online' : ''}> · {place}</span>}
        </p>
        {!entryPass && (
          <p class="muted">
            {ended ? t(`guest.order.${e.ticketBlocked}`) : t(`visitorStatus.${e.registrationStatus.status}`)} · {e.visitorCount === 1 ? t('guest.person') : t('guest.persons', { n: e.visitorCount })}
            {e.waitingListPosition ? ` · ${t('guest.waitingListPosition', { n: e.waitingListPosition })}` : ''}
          </p>
        )}
      </div>
      {!entryPass && e.missingAgreements && e.missingAgreements.length > 0 && (
        <ul class="guest-missing-agreements">
          {e.missingAgreements.map((a) => (
            <li key={a.id}>{t('guest.agreementMissing', { name: a.displayName })}</li>
          ))}
        </ul>
      )}
      {!entryPass && !ended && <GuestExtras entry={e as never} reload={reload} />}
      {list === 'confirmedEvents' && <RegisteredOptions e={e} reload={reload} entryPass={entryPass} />}
      {list === 'pendingEvents' && <PendingOptions e={e} reload={reload} />}
      {list !== 'confirmedEvents' && list !== 'pendingEvents' && <OtherOptions e={e} reload={reload} />}
    </li>
  )
}

function monthLabel(iso: string, tz: string) {
  return new Intl.DateTimeFormat(intlLocale(currentLanguage()), { month: 'long', year: 'numeric', timeZone: tz }).format(new Date(iso))
}

function Section({ list, items, reload, entryPass }: { list: ListName; items: GuestEntry[]; reload(): Promise<void>; entryPass: boolean }) {
  const sorted = BY_MONTH.has(list) ? [...items].sort((a, b) => a.event.startDate.localeCompare(b.event.startDate)) : items
  const groups = new Map<string, GuestEntry[]>()
  for (const e of sorted) {
    const k = BY_MONTH.has(list) ? monthLabel(e.event.startDate, e.event.timezone) : ''
    groups.set(k, [...(groups.get(k) ?? []), e])
  }
  return (
    <section class={`guest-section ${list === 'pendingEvents' ? 'important' : ''}`} aria-labelledby={`h-${list}`} data-testid={`section-${list}`}>
      <h2 id={`h-${list}`}>
        {t(`guest.list.${list}`)}{' '}
        <span class="count" aria-label={String(items.length)}>
          {items.length}
        </span>
      </h2>
      {list === 'pendingEvents' && <Alert tone="warn">{t(items.every((e) => e.ticketOrder?.status === 'OPEN') ? 'guest.list.pendingEvents.promptPay' : 'guest.list.pendingEvents.prompt')}</Alert>}
      {[...groups].map(([month, es]) => (
        <div key={month}>
          {month && <h3 class="month">{month}</h3>}
          <ul class="guest-events">
            {es.map((e) => (
              <EventCard key={e.id} e={e} list={list} reload={reload} entryPass={entryPass} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  )
}

function EventsView({ entryPass }: { entryPass: boolean }) {
  const { data, error, reload } = useResource<Lists>('/proxy/api/guest/events')
  return (
    <>
      {error && <Alert tone="error">{error.status === 401 ? t('guest.noAccess') : (error.errorTranslation ?? error.errorMessage)}</Alert>}
      {!data && !error && <Spinner />}
      {data && ORDER.every((l) => data[l].length === 0) && <Card>{t('guest.empty')}</Card>}
      {data && ORDER.filter((l) => data[l].length > 0).map((l) => <Section key={l} list={l} items={data[l]} reload={reload} entryPass={entryPass} />)}
    </>
  )
}

/** /guest/dashboard and /guest/notifications: the two tabs of the dashboard. */
export function Dashboard({ initialTab }: { initialTab?: 'events' | 'notifications' }) {
  useLanguage()
  const auth = useAuth()
  const entryPass = isEntryPass(auth?.details.features ?? [])
  const [, navigate] = useLocation()
  const [tab, setTab] = useState<'events' | 'notifications'>(() => (entryPass ? 'events' : (initialTab ?? rememberedTab())))
  const choose = (next: 'events' | 'notifications') => {
    setTab(next)
    try {
      sessionStorage.setItem(TAB_KEY, next)
    } catch {}
    navigate(next === 'notifications' ? '/guest/notifications' : '/guest/dashboard', { replace: true })
  }
  return (
    <>
      <h1>{t('guest.dashboard.title')}</h1>
      {!entryPass && (
        <div class="guest-tabs" role="tablist" aria-label={t('guest.dashboard.title')}>
          {(['events', 'notifications'] as const).map((k) => (
            <button key={k} type="button" role="tab" id={`tab-${k}`} aria-selected={tab === k} aria-controls={`panel-${k}`} class={`guest-tab ${tab === k ? 'active' : ''}`} onClick={() => choose(k)}>
              {t(`guest.tab.${k}`)}
            </button>
          ))}
        </div>
      )}
      <div role={entryPass ? undefined : 'tabpanel'} id={`panel-${tab}`} aria-labelledby={entryPass ? undefined : `tab-${tab}`}>
        {tab === 'events' ? <EventsView entryPass={entryPass} /> : <Notifications />}
      </div>
    </>
  )
}
