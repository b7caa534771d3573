// Public event page /public/event/{id} and its embeddable frame /public/event/{id}/frame
// (?container under SYSTEM_COVIDOO; embed options hideCookieinfo and scrollId). The frame tells the
// host page its height (einlass:height) and where to scroll (einlass:scroll); /embed.js applies both.
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-public'
import type { ComponentType } from 'preact'
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks'
import { useRoute } from 'wouter'
import type { FieldDef, VisitorData } from '../../../server/modules/forms/definitions'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import { ApiError, answerOf, errorText, get, post, session } from '../../api/client'
import { FieldErrorDialog } from '../../components/field-error-dialog'
import { FormEngine, type ServerFieldError } from '../../components/form-engine'
import type { SeatPickerProps } from '../../components/seat-picker'
import type { AreaAnswer, PickedSeat } from '../../components/seat-picker/model'
import { newIdentification } from '../../components/form-engine/reservations'
import { NotFound } from '../../components/not-found'
import { PublicFrame } from '../../components/public-frame'
import { AgencyBrand } from '../../components/agency-brand'
import { Alert, Card, Spinner } from '../../components/ui'
import { currentLanguage, t, useLanguage } from '../../i18n'
import type { PublicAgreement } from './agreements'
import type { DrawnPicker, EarlyRequests, WorkerAnswer } from './early-requests'
import { type SeatTickets, type TicketChoice, useTicketCategories } from './tickets'

interface PublicEvent {
  id: number
  displayName: string
  subTitle: string | null
  startDate: string
  endDate: string
  timezone: string
  eventType: string
  address: { locationName: string | null; street: string | null; streetNumber: string | null; postCode: string | null; city: string | null }
  agency: { displayName: string; logoPath: string | null } | null
  registrationState: 'OPEN' | 'NOT_OPEN' | 'CLOSED' | 'EXPIRED' | 'FULL'
  freePlaces: number | null
  maxVisitorPerSubscription: number
  registrationButtonType: string
  /** the organiser's link after registration and its label (shown on the confirmation) */
  externalConfirmationLink?: string | null
  externalConfirmationLabel?: string | null
  primaryColor: string | null
  defaultPhoneLocale: string
  disabledCovidStates: string[]
  image: { path: string } | null
  /** sanitised HTML (server/modules/events/rich-text.ts) */
  description: string | null
  /** the organiser's contact for guests (agency settings), when set */
  contact: { name: string | null; phone: string | null; mail: string | null } | null
  /** the organiser's imprint and privacy notice: an address, or a (sanitised) text */
  legal: { imprintUrl: string | null; imprintText: string | null; privacyUrl: string | null; privacyText: string | null } | null
  /** the organiser's texts per language, non-empty fields only (server/modules/events/translations.ts) */
  translations?: Record<string, Partial<{ displayName: string; subTitle: string; description: string; locationName: string }>>
}

/** The event in the guest's language: the organiser's translation field by field (the server sends only non-empty ones), German where it has none (docs/languages.md, "Organiser texts"). */
function inLanguage(e: PublicEvent, lang: string): PublicEvent {
  const tr = e.translations?.[lang]
  return tr ? { ...e, ...tr, address: { ...e.address, ...tr } } : e
}

interface PublicForm {
  fields: FieldDef[]
  waitingList: boolean
  systemCovidoo?: boolean
  /** the agreements registering asks for (issue 10, item 3) */
  agreements?: PublicAgreement[]
  isPayedEvent?: boolean
}

type AgreementsModule = typeof import('./agreements')

interface Done {
  status: string
  email: string | null
  /** paid events: the order the guest pays at /pay/{id} */
  ticketOrderId?: string
  /** the seats the guest registered with (seating plan) */
  seats?: string[]
}

/** The picker reports its seats after every change; an unchanged list must not render the whole form again. */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

type SeatLoad = { Picker: ComponentType<SeatPickerProps>; plan: SeatPickerProps['plan']; initial?: SeatPickerProps['initial'] }

/**
 * A request the page's HTML started before the UI loaded (./early.ts), taken once: a second visit of
 * the same page within the app (or another event's) asks anew.
 */
function takeEarly<K extends 'event' | 'form' | 'seating'>(eventId: number, key: K): EarlyRequests[K] | undefined {
  const early = (window as { __einlassEarly?: EarlyRequests }).__einlassEarly
  if (!early || early.eventId !== eventId) return undefined
  const request = early[key]
  early[key] = undefined
  return request
}

/**
 * The data of an answer the page's worker read; undefined for an error (the worker asked without
 * the page's language: the page asks again itself, and shows the error in the guest's language).
 */
function workerData<T>(a: WorkerAnswer | undefined): T | undefined {
  if (!a || a.status !== 200 || !a.json) return undefined
  try {
    return JSON.parse(new TextDecoder().decode(a.bytes)) as T
  } catch {
    return undefined
  }
}
/** An early request's answer; asked again by the page's own call when it is an error (see workerData). */
const earlyOr = <T,>(early: Promise<Response> | undefined, ask: () => Promise<T>): Promise<T> => (early ? answerOf<T>(early).catch(ask) : ask())

const seatLoads = new Map<number, Promise<SeatLoad | null>>()
/** What loadSeats answered, by event: a page that mounts after it answered draws the plan in its first render. */
const seatsLoaded = new Map<number, SeatLoad | null>()
/**
 * The seat picker's chunk, asked for only when the event has a seating plan (it is not part of the
 * page's budget). Started by the event page next to the event and form (by the page's HTML when it
 * could, ./early.ts), and the first area's chairs are read while the chunk loads: the plan of 5,000
 * chairs waits for no request chain (docs/seating.md).
 */
function loadSeats(eventId: number): Promise<SeatLoad | null> {
  let load = seatLoads.get(eventId)
  const drawn = load ? undefined : takeDrawnPicker(eventId)
  if (drawn) {
    const loaded: SeatLoad = { Picker: drawn.Picker, plan: drawn.plan, initial: drawn.initial }
    seatsLoaded.set(eventId, loaded)
    load = Promise.resolve(loaded)
    seatLoads.set(eventId, load)
  }
  if (!load) {
    const early = takeEarly(eventId, 'seating') ?? Promise.resolve(null)
    const planUrl = `/proxy/api/public/events/${eventId}/seatingplan`
    type Plan = NonNullable<SeatPickerProps['plan']>
    // the worker's answers when it read them (./page-worker.ts), else asked now
    load = early
      .then((seating) => {
        const earlyPlan = workerData<Plan>(seating?.plan)
        return (earlyPlan ? Promise.resolve(earlyPlan) : get<Plan>(planUrl)).then((plan): Promise<SeatLoad | null> | null => {
          if (!plan.areas.length) return null
          const areaId = plan.areas[0].id
          const earlyArea = seating?.area?.areaId === areaId ? workerData<AreaAnswer>(seating.area.answer) : undefined
          const first = (earlyArea ? Promise.resolve(earlyArea) : post<AreaAnswer>(`/proxy/api/public/events/${eventId}/seatingplanArea`, { areaId, chairFormat: 'columns' })).catch(() => null)
          return Promise.all([import('../../components/seat-picker'), first]).then(([m, first]) => ({ Picker: m.default, plan, initial: first ? { areaId, answer: first } : undefined }))
        })
      })
      .catch(() => null)
      .then((loaded) => (seatsLoaded.set(eventId, loaded), loaded))
    seatLoads.set(eventId, load)
  }
  return load
}
/** The picker the seating page drew before the app (./plan-first.tsx), taken by the page: discarded if no form takes it. */
let drawnWaiting: DrawnPicker | null = null
/** The picker the seating page drew before the app, for this event, once. */
function takeDrawnPicker(eventId: number): DrawnPicker | undefined {
  const scope = window as { __einlassPicker?: DrawnPicker }
  const drawn = scope.__einlassPicker
  if (drawn?.eventId !== eventId) return undefined
  scope.__einlassPicker = undefined
  drawnWaiting = drawn
  return drawn
}
/** The page shows no form for this event (an error, registration closed, registered) or left it: the drawn picker goes. */
function discardDrawnPicker(eventId: number) {
  if (drawnWaiting?.eventId !== eventId) return
  drawnWaiting.discard()
  drawnWaiting = null
}
function useSeatPicker(eventId: number): SeatLoad | null | undefined {
  const [picker, setPicker] = useState<SeatLoad | null | undefined>(() => seatsLoaded.get(eventId))
  // a layout effect: the answer is taken in the task it arrives in, not a frame after the first paint
  useLayoutEffect(() => void loadSeats(eventId).then(setPicker), [eventId])
  return picker
}

type PageLoad = { event: PublicEvent; form: PublicForm }
/** The event and its form: the answers the page's HTML asked for when there are (./early.ts), else asked now. */
function loadPage(id: number): Promise<PageLoad> {
  const early = [takeEarly(id, 'event'), takeEarly(id, 'form')]
  return Promise.all([
    earlyOr(early[0], () => get<PublicEvent>(`/proxy/api/public/events/${id}`)),
    earlyOr(early[1], () => get<PublicForm>(`/proxy/api/public/events/${id}/form`)),
  ]).then(([event, form]) => ({ event, form }))
}
/**
 * The first page's load, started when this chunk runs (before Preact has rendered anything) for the
 * event the HTML's early requests are for, together with its seating plan: the answers are read while
 * the app renders its first frames, and the page renders them in its first render when they are here.
 */
let firstPage: { id: number; load: Promise<PageLoad>; loaded?: PageLoad } | null = null
const earlyId = (window as { __einlassEarly?: EarlyRequests }).__einlassEarly?.eventId
if (earlyId) {
  const first = { id: earlyId, load: loadPage(earlyId), loaded: undefined as PageLoad | undefined }
  first.load.then((v) => void (first.loaded = v)).catch(() => {})
  firstPage = first
  void loadSeats(earlyId)
}
/** The first page's load for this event, once: a later visit within the app asks anew. */
function takeFirstPage(id: number) {
  const first = firstPage?.id === id ? firstPage : null
  firstPage = null
  return first
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
  // an invited guest (from the dashboard) gets what the organiser knows, and confirms the invitation
  const [prefill, setPrefill] = useState<{ values: Partial<VisitorData>; locked: string[]; invitation?: { visitorId: number; status: string } } | null>(session.knownGuest ? null : { values: {}, locked: [] })
  const tickets = useTicketCategories(event.id, !!form.isPayedEvent)
  const [choice, setChoice] = useState<TicketChoice>({ amounts: {}, couponCode: '' })
  const [ticketErrors, setTicketErrors] = useState<Record<string, string>>({})
  const SeatPicker = useSeatPicker(event.id)
  const [seats, setSeats] = useState<string[]>([])
  const [picked, setPicked] = useState<PickedSeat[]>([])
  // a paid event's plan: a price category names the ticket category its chairs are sold as
  const seatTickets = useMemo((): SeatTickets | undefined => {
    if (!tickets || !SeatPicker) return undefined
    const ticketOf = new Map((SeatPicker.plan?.priceCategories ?? []).filter((c) => c.ticketCategoryId != null && tickets.items.some((i) => i.id === c.ticketCategoryId)).map((c) => [c.id, c.ticketCategoryId!]))
    if (!ticketOf.size) return undefined
    const amounts: Record<number, number> = {}
    for (const s of picked) {
      const id = s.priceCategoryId != null ? ticketOf.get(s.priceCategoryId) : undefined
      if (id != null) amounts[id] = (amounts[id] ?? 0) + s.amount
    }
    return { bound: new Set(ticketOf.values()), amounts }
  }, [tickets, SeatPicker, picked])
  const seatPrices = useMemo(() => {
    if (!tickets || !SeatPicker) return undefined
    const out: Record<number, string> = {}
    for (const c of (SeatPicker.plan?.priceCategories ?? [])) {
      const tc = tickets.items.find((i) => i.id === c.ticketCategoryId)
      if (tc) out[c.id] = tc.grossPriceText
    }
    return out
  }, [tickets, SeatPicker])
  useEffect(() => {
    if (prefill) return
    get<{ values: Partial<VisitorData>; locked: string[]; invitation?: { visitorId: number; status: string } }>(`/proxy/api/public/events/${event.id}/prefill`)
      .then(setPrefill)
      .catch(() => setPrefill({ values: {}, locked: [] }))
  }, [])
  const agreements = form.agreements ?? []
  const [agreementUi, setAgreementUi] = useState<AgreementsModule | null>(null)
  const [signatures, setSignatures] = useState<Record<number, string | null>>({})
  const [agreementErrors, setAgreementErrors] = useState<Record<number, string>>({})
  useEffect(() => {
    if (agreements.length) void import('./agreements').then(setAgreementUi)
  }, [agreements.length])
  // the form does not wait for the seating plan: it renders while the plan's chunk and first area load
  if (!prefill || (agreements.length > 0 && !agreementUi) || (form.isPayedEvent && !tickets)) return <Spinner />
  const submit = async (data: VisitorData & { chairReservations?: string[] }): Promise<ServerFieldError[] | void> => {
    setError(null)
    setTicketErrors({})
    // a REQUIRED agreement needs its signature before anything is sent
    const unsigned = Object.fromEntries(agreements.filter((a) => a.appearance === 'REQUIRED' && !signatures[a.id]).map((a) => [a.id, 'SIGNATURE_REQUIRED']))
    setAgreementErrors(unsigned)
    if (Object.keys(unsigned).length) {
      setError(t('registration.agreements.missing'))
      document.getElementById(`agreement-${Object.keys(unsigned)[0]}`)?.scrollIntoView({ block: 'center' })
      return
    }
    const decisions = agreements.filter((a) => signatures[a.id]).map((a) => ({ id: a.id, status: 'CONFIRMED', signature: signatures[a.id], version: a.version }))
    const paid = form.isPayedEvent
      ? { tickets: Object.entries(choice.amounts).filter(([id, n]) => n > 0 && !seatTickets?.bound.has(Number(id))).map(([id, n]) => ({ categoryId: Number(id), amount: n })), couponCode: choice.couponCode.trim() || null, ticketCode: choice.ticketCode || null }
      : {}
    try {
      const r = await post<Done>(`/proxy/api/public/events/${event.id}/registrations`, { ...data, ...paid, identification, language: currentLanguage(), shortLink: opts.shortLink, agreements: decisions })
      if (r.ticketOrderId) {
        // framed, the pay page opens in the top window (embed.js, else the frame's own top
        // navigation); the frame itself goes only if both are refused
        const url = `${location.origin}/pay/${r.ticketOrderId}`
        tellParent({ type: 'einlass:navigate', url })
        setTimeout(() => location.assign(url), 1500)
        try {
          window.top!.location.href = url
        } catch {}
        return
      }
      onDone({ ...r, seats: data.chairReservations?.length ? seats : [] })
      tellParent({ type: 'einlass:scroll', scrollId: opts.scrollId, eventId: event.id })
    } catch (e) {
      const all = e instanceof ApiError ? e.errorFields : []
      const onAgreements = all.filter((f) => f.field.startsWith('agreements.'))
      if (onAgreements.length) setAgreementErrors(Object.fromEntries(onAgreements.map((f) => [Number(f.field.slice('agreements.'.length)), f.errorType])))
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
      {prefill.invitation && <Alert tone="info">{t('registration.invitationHint')}</Alert>}
      <FormEngine
        event={event}
        defs={form.fields}
        mode="public"
        identification={identification}
        initial={prefill.values}
        locked={prefill.locked}
        submitLabel={prefill.invitation ? t('registration.confirmInvitation') : form.isPayedEvent ? t('registration.tickets.submit') : t(event.registrationButtonType === 'SEND' ? 'registration.submitRequest' : 'registration.submit')}
        onSubmit={submit}
        seats={SeatPicker === undefined ? () => <Spinner /> : SeatPicker ? (h) => <SeatPicker.Picker {...h} plan={SeatPicker.plan} initial={SeatPicker.initial} eventId={event.id} maxPerVisit={event.maxVisitorPerSubscription} onLabels={(l) => setSeats((prev) => (sameJson(prev, l) ? prev : l))} onSeats={(x) => setPicked((prev) => (sameJson(prev, x) ? prev : x))} prices={seatPrices} /> : undefined}
      >
        {tickets && <tickets.Picker data={tickets} value={choice} errors={ticketErrors} seats={seatTickets} onChange={setChoice} />}
        {agreementUi && agreements.length > 0 && (
          <agreementUi.default
            agreements={agreements}
            errors={agreementErrors}
            onSign={(id, png) => {
              setSignatures((s) => ({ ...s, [id]: png }))
              if (png) setAgreementErrors(({ [id]: _, ...rest }) => rest)
            }}
          />
        )}
      </FormEngine>
      {fieldError && <FieldErrorDialog error={fieldError} labels={labels} defs={form.fields} onClose={() => setFieldError(null)} />}
    </>
  )
}

function DoneMessage({ done, event, frame }: { done: Done; event: PublicEvent; frame: boolean }) {
  const waiting = done.status === 'WAITING_LIST'
  const link = event.externalConfirmationLink
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
      {link && (
        <p>
          {/* framed: the link opens in the page that embeds the form, not inside the frame */}
          <a class="btn btn-primary" href={link} target={frame ? '_top' : undefined} rel="noopener">
            {event.externalConfirmationLabel?.trim() || t('registration.done.link')}
          </a>
        </p>
      )}
      {!waiting && !!done.seats?.length && <p class="done-seats">{t('registration.seats.done', { labels: done.seats.join(', ') })}</p>}
    </div>
  )
}

/** Links to the organiser's imprint and privacy notice (a text opens in place). */
function Legal({ legal }: { legal: NonNullable<PublicEvent['legal']> }) {
  const part = (label: string, url: string | null, text: string | null) =>
    url ? (
      <a href={url} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    ) : text ? (
      <details>
        <summary>{label}</summary>
        <div class="rich-text" dangerouslySetInnerHTML={{ __html: text }} />
      </details>
    ) : null
  const imprint = part(t('registration.legal.imprint'), legal.imprintUrl, legal.imprintText)
  const privacy = part(t('registration.legal.privacy'), legal.privacyUrl, legal.privacyText)
  if (!imprint && !privacy) return null
  return (
    <nav class="event-legal" aria-label={`${t('registration.legal.imprint')} / ${t('registration.legal.privacy')}`}>
      {imprint}
      {privacy}
    </nav>
  )
}

/** The organiser's contact for guests, under the description. */
function Contact({ contact, organiser }: { contact: NonNullable<PublicEvent['contact']>; organiser: string | null }) {
  return (
    <section class="event-contact" aria-labelledby="event-contact-title">
      <h2 id="event-contact-title">{t('registration.contact.title')}</h2>
      <p>
        {contact.name ?? organiser}
        {contact.phone && (
          <>
            <br />
            <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`}>{contact.phone}</a>
          </>
        )}
        {contact.mail && (
          <>
            <br />
            <a href={`mailto:${contact.mail}`}>{contact.mail}</a>
          </>
        )}
      </p>
    </section>
  )
}

function EventPage({ id, frame }: { id: number; frame: boolean }) {
  const lang = useLanguage()
  const opts = useMemo(() => embedOptions(frame), [frame])
  const [first] = useState(() => ({ page: takeFirstPage(id) }))
  const [loaded, setEvent] = useState<PublicEvent | null>(first.page?.loaded?.event ?? null)
  const event = loaded && inLanguage(loaded, lang)
  const [form, setForm] = useState<PublicForm | null>(first.page?.loaded?.form ?? null)
  const [error, setError] = useState<ApiError | null>(null)
  const [done, setDone] = useState<Done | null>(null)
  // a layout effect: the answers are taken in the task they arrive in, not a frame after the first paint
  useLayoutEffect(() => {
    // the seating plan (if any) loads alongside, not after the form has rendered
    void loadSeats(id)
    const load = first.page?.id === id ? first.page.load : loadPage(id)
    first.page = null
    load
      .then(({ event: e, form: f }) => (setEvent(e), setForm(f)))
      .catch((e) => setError(e instanceof ApiError ? e : new ApiError(0, 'INTERNAL_ERROR', String(e))))
  }, [id])
  // a plan drawn before the app that no form will take: gone with the page, or when it shows no form
  const formShown = !!event && !!form && !done && (event.registrationState === 'OPEN' || (event.registrationState === 'FULL' && !!form.waitingList))
  useLayoutEffect(() => {
    if (error || (event && form && !formShown)) discardDrawnPicker(id)
  }, [error, event, form, formShown, id])
  useEffect(() => () => discardDrawnPicker(id), [id])
  useFrameHeight(frame, id)
  useEffect(() => {
    // framed: the host page's background shows through
    document.body.classList.toggle('in-frame', frame)
    return () => document.body.classList.remove('in-frame')
  }, [frame])
  const container = frame && opts.container && !!form?.systemCovidoo
  // the page's own header (not in a host page's frame): the agency's logo or name and the event title
  const header = !frame && event && (
    <header class="topbar public-topbar">
      <span class="brand">
        <AgencyBrand brand={event.agency} />
      </span>
      <span class="topbar-title">{event.displayName}</span>
    </header>
  )
  const shell = (body: preact.ComponentChildren) => (
    <PublicFrame footer={!frame} header={header}>
      <div class={`public-page ${frame ? 'is-frame' : ''} ${container ? 'is-container' : ''}`}>
        {body}
        {!opts.hideCookieinfo && <p class="cookie-info">{t('registration.cookieInfo')}</p>}
        {event?.legal && <Legal legal={event.legal} />}
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
              {formatDateIn(currentLanguage(), event.startDate, event.timezone)}, {formatTime(event.startDate, event.timezone)} – {formatTime(event.endDate, event.timezone)}
            </span>
            {place && <span>{place}</span>}
          </p>
          {event.image && <img class="event-public-image" src={event.image.path} alt="" />}
          {event.description && <div class="event-description rich-text" dangerouslySetInnerHTML={{ __html: event.description }} />}
          {event.contact && <Contact contact={event.contact} organiser={event.agency?.displayName ?? null} />}
        </header>
      )}
      <Card class="registration-card" aria-labelledby="reg-title">
        <h2 id="reg-title" class="form-title">
          {frame ? event.displayName : t('registration.title')}
        </h2>
        {done ? (
          <DoneMessage done={done} event={event} frame={frame} />
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
  return <NotFound />
}
