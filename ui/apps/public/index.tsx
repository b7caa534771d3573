// Public event page /public/event/{id} and its embeddable frame /public/event/{id}/frame
// (?container under SYSTEM_COVIDOO; embed options hideCookieinfo and scrollId). The frame tells the
// host page its height (einlass:height) and where to scroll (einlass:scroll); /embed.js applies both.
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-public'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { useRoute } from 'wouter'
import type { FieldDef, VisitorData } from '../../../server/modules/forms/definitions'
import { formatDate, formatTime } from '../../../server/i18n/format'
import { ApiError, errorText, get, post, session } from '../../api/client'
import { FieldErrorDialog } from '../../components/field-error-dialog'
import { FormEngine, type ServerFieldError } from '../../components/form-engine'
import { newIdentification } from '../../components/form-engine/reservations'
import { PublicFrame } from '../../components/public-frame'
import { Alert, Card, Spinner } from '../../components/ui'
import { currentLanguage, t, useLanguage } from '../../i18n'
import { type TicketChoice, TicketPicker, useTicketCategories } from './tickets'

interface PublicEvent {
  id: number
  displayName: string
  subTitle: string | null
  startDate: string
  endDate: string
  timezone: string
  eventType: string
  address: { locationName: string | null; street: string | null; streetNumber: string | null; postCode: string | null; city: string | null }
  agency: { displayName: string } | null
  registrationState: 'OPEN' | 'NOT_OPEN' | 'CLOSED' | 'EXPIRED' | 'FULL'
  freePlaces: number | null
  maxVisitorPerSubscription: number
  registrationButtonType: string
  primaryColor: string | null
  defaultPhoneLocale: string
  disabledCovidStates: string[]
  image: { path: string } | null
}

interface PublicForm {
  fields: FieldDef[]
  waitingList: boolean
  systemCovidoo?: boolean
  isPayedEvent?: boolean
}

interface Done {
  status: string
  email: string | null
  /** paid events: the order the guest pays at /pay/{id} */
  ticketOrderId?: string
}

interface EmbedOptions {
  frame: boolean
  hideCookieinfo: boolean
  scrollId: string | null
  container: boolean
  /** the short link the guest came by (/s/{code} redirects here with ?sl=) */
  shortLink: string | null
}

function embedOptions(frame: boolean): EmbedOptions {
  const q = new URLSearchParams(location.search)
  const flag = (k: string) => q.has(k) && q.get(k) !== 'false' && q.get(k) !== '0'
  return { frame, hideCookieinfo: flag('hideCookieinfo'), scrollId: q.get('scrollId'), container: flag('container'), shortLink: q.get('sl') }
}

/** Messages to the page that embeds the frame (no-op when not framed). */
function tellParent(message: Record<string, unknown>) {
  if (window.parent !== window) window.parent.postMessage(message, '*')
}

function useFrameHeight(enabled: boolean, eventId: number) {
  useEffect(() => {
    if (!enabled || window.parent === window) return
    const send = () => tellParent({ type: 'einlass:height', height: document.documentElement.scrollHeight, eventId })
    const ro = new ResizeObserver(send)
    ro.observe(document.body)
    send()
    return () => ro.disconnect()
  }, [enabled])
}

function Registration({ event, form, opts, onDone }: { event: PublicEvent; form: PublicForm; opts: EmbedOptions; onDone(d: Done): void }) {
  const identification = useMemo(newIdentification, [])
  const [fieldError, setFieldError] = useState<ApiError | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [prefill, setPrefill] = useState<{ values: Partial<VisitorData>; locked: string[] } | null>(session.knownGuest ? null : { values: {}, locked: [] })
  const tickets = useTicketCategories(event.id, !!form.isPayedEvent)
  const [choice, setChoice] = useState<TicketChoice>({ amounts: {}, couponCode: '' })
  const [ticketErrors, setTicketErrors] = useState<Record<string, string>>({})
  useEffect(() => {
    if (prefill) return
    get<{ values: Partial<VisitorData>; locked: string[] }>(`/proxy/api/public/events/${event.id}/prefill`)
      .then(setPrefill)
      .catch(() => setPrefill({ values: {}, locked: [] }))
  }, [])
  if (!prefill || (form.isPayedEvent && !tickets)) return <Spinner />
  const submit = async (data: VisitorData): Promise<ServerFieldError[] | void> => {
    setError(null)
    setTicketErrors({})
    const paid = form.isPayedEvent
      ? { tickets: Object.entries(choice.amounts).filter(([, n]) => n > 0).map(([id, n]) => ({ categoryId: Number(id), amount: n })), couponCode: choice.couponCode.trim() || null }
      : {}
    try {
      const r = await post<Done>(`/proxy/api/public/events/${event.id}/registrations`, { ...data, ...paid, identification, language: currentLanguage(), shortLink: opts.shortLink })
      if (r.ticketOrderId) {
        location.assign(`/pay/${r.ticketOrderId}`)
        return
      }
      onDone(r)
      tellParent({ type: 'einlass:scroll', scrollId: opts.scrollId, eventId: event.id })
    } catch (e) {
      const all = e instanceof ApiError ? e.errorFields : []
      const isTicket = (f: string) => f === 'tickets' || f.startsWith('tickets.') || f === 'couponCode'
      const fields = all.filter((f) => !isTicket(f.field))
      if (all.some((f) => isTicket(f.field))) {
        setTicketErrors(Object.fromEntries(all.filter((f) => isTicket(f.field)).map((f) => [f.field, f.errorType])))
        if (!fields.length) {
          if (e instanceof ApiError && e.errorType !== 'FIELD_ERROR') setError(errorText(e))
          tellParent({ type: 'einlass:scroll', scrollId: opts.scrollId, eventId: event.id })
          return []
        }
      }
      if (e instanceof ApiError && (e.errorType === 'FIELD_ERROR' || e.errorType === 'FIELD_ERROR_WARN_BUT_SAVED') && fields.length) setFieldError(e)
      else setError(errorText(e))
      tellParent({ type: 'einlass:scroll', scrollId: opts.scrollId, eventId: event.id })
      return fields
    }
  }
  const labels = fieldError ? Object.fromEntries(((fieldError.body.missingFields as Array<{ field: string; displayName: string }>) ?? []).map((m) => [m.field, m.displayName])) : {}
  return (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      <FormEngine
        event={event}
        defs={form.fields}
        mode="public"
        identification={identification}
        initial={prefill.values}
        locked={prefill.locked}
        submitLabel={form.isPayedEvent ? t('registration.tickets.submit') : t(event.registrationButtonType === 'SEND' ? 'registration.submit' : 'registration.submitRequest')}
        onSubmit={submit}
      >
        {tickets && <TicketPicker data={tickets} value={choice} errors={ticketErrors} onChange={setChoice} />}
      </FormEngine>
      {fieldError && <FieldErrorDialog error={fieldError} labels={labels} onClose={() => setFieldError(null)} />}
    </>
  )
}

function DoneMessage({ done }: { done: Done }) {
  const waiting = done.status === 'WAITING_LIST'
  return (
    <div class={`done ${waiting ? 'done-waiting' : ''}`} role="status">
      <h2>{t(waiting ? 'registration.done.waitingListTitle' : 'registration.done.title')}</h2>
      <p>
        {waiting
          ? t('registration.done.waitingList')
          : done.status === 'REQUIRE_APPROVAL'
            ? t('registration.done.approval')
            : done.email
              ? t('registration.done.text', { email: done.email })
              : t('registration.done.noMail')}
      </p>
    </div>
  )
}

function EventPage({ id, frame }: { id: number; frame: boolean }) {
  useLanguage()
  const opts = useMemo(() => embedOptions(frame), [frame])
  const [event, setEvent] = useState<PublicEvent | null>(null)
  const [form, setForm] = useState<PublicForm | null>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const [done, setDone] = useState<Done | null>(null)
  useEffect(() => {
    Promise.all([get<PublicEvent>(`/proxy/api/public/events/${id}`), get<PublicForm>(`/proxy/api/public/events/${id}/form`)])
      .then(([e, f]) => (setEvent(e), setForm(f)))
      .catch((e) => setError(e instanceof ApiError ? e : new ApiError(0, 'INTERNAL_ERROR', String(e))))
  }, [id])
  useFrameHeight(frame, id)
  useEffect(() => {
    // framed: the host page's background shows through
    document.body.classList.toggle('in-frame', frame)
    return () => document.body.classList.remove('in-frame')
  }, [frame])
  const container = frame && opts.container && !!form?.systemCovidoo
  const shell = (body: preact.ComponentChildren) => (
    <PublicFrame footer={!frame}>
      <div class={`public-page ${frame ? 'is-frame' : ''} ${container ? 'is-container' : ''}`}>
        {body}
        {!opts.hideCookieinfo && <p class="cookie-info">{t('registration.cookieInfo')}</p>}
      </div>
    </PublicFrame>
  )
  if (error) return shell(<Alert tone="error">{error.status === 404 ? t('errors.NOT_FOUND') : errorText(error)}</Alert>)
  if (!event || !form) return <Spinner />
  const place =
    event.eventType === 'ONLINE'
      ? t('events.online')
      : [event.address.locationName, [event.address.street, event.address.streetNumber].filter(Boolean).join(' '), [event.address.postCode, event.address.city].filter(Boolean).join(' ')].filter(Boolean).join(', ')
  const full = event.registrationState === 'FULL'
  const open = event.registrationState === 'OPEN' || (full && form.waitingList)
  return shell(
    <article class="event-public">
      {!frame && (
        <header class="event-hero" style={event.primaryColor ? { borderTopColor: event.primaryColor } : undefined}>
          {event.agency && <p class="muted">{event.agency.displayName}</p>}
          <h1>{event.displayName}</h1>
          {event.subTitle && <p class="lead">{event.subTitle}</p>}
          <p class="event-meta">
            <span>
              {formatDate(event.startDate, event.timezone)}, {formatTime(event.startDate, event.timezone)} – {formatTime(event.endDate, event.timezone)}
            </span>
            {place && <span>{place}</span>}
          </p>
        </header>
      )}
      <Card class="registration-card" aria-labelledby="reg-title">
        <h2 id="reg-title" class="form-title">
          {frame ? event.displayName : t('registration.title')}
        </h2>
        {done ? (
          <DoneMessage done={done} />
        ) : !open ? (
          <Alert tone="warn">{t(`events.registrationState.${event.registrationState}`)}</Alert>
        ) : (
          <>
            {full ? <Alert tone="info">{t('registration.waitingListOpen')}</Alert> : event.freePlaces != null && <p class="muted">{t('registration.freePlaces', { n: event.freePlaces })}</p>}
            <Registration event={event} form={form} opts={opts} onDone={setDone} />
          </>
        )}
      </Card>
    </article>,
  )
}

export default function PublicApp() {
  const [isFrame, fp] = useRoute('/public/event/:id/frame')
  const [isPage, pp] = useRoute('/public/event/:id')
  if (isFrame) return <EventPage id={Number(fp!.id)} frame />
  if (isPage) return <EventPage id={Number(pp!.id)} frame={false} />
  return (
    <PublicFrame>
      <Alert tone="error">{t('errors.NOT_FOUND')}</Alert>
    </PublicFrame>
  )
}
