// The guest's seat picker (register mode, agency-side.md §2.11, §9; guest-side.md §4): loaded as its
// own chunk only for events with a seating plan. One <canvas> draws every chair of the area, clicks
// and taps find their chair by geometry (no DOM node per chair), so 5,000 chairs stay smooth. Pan and
// pinch with pointer events, wheel zoom on desktops (zoom 1 to 20; the buttons step 0.2 up to 4).
// `?nocanvas` shows only the list, `?nohammer` leaves touch gestures to the page (tap still picks).
// The list of free seats by row is the keyboard and screen-reader way to the same chairs; states are
// told by mark and text (✓ yours, × taken), never by colour alone. Holds share the form's countdown.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiError, api, errorText, get, post } from '../../api/client'
import { t } from '../../i18n'
import '../../i18n/part-seats'
import type { SeatHolds } from '../form-engine'
import { Alert, Button, Spinner } from '../ui'
import { type Category, type PickedSeat, type Area, type Chair, type AreaAnswer, chairsOf, flag } from './model'
import { ChairPopup } from './chair-popup'
import { SeatList } from './seat-list'
import { PlanCanvas } from './canvas'

export interface SeatPickerProps extends SeatHolds {
  eventId: number
  /** the event's maxVisitorPerSubscription (0: the server's default of 10) */
  maxPerVisit: number
  /** the labels of the chairs the guest holds, for the confirmation */
  onLabels?(labels: string[]): void
  /** the chairs the guest holds with their price category (a paid event prices its tickets by them) */
  onSeats?(seats: PickedSeat[]): void
  /** paid event: the price of a chair of each price category (by price category id) */
  prices?: Record<number, string>
  /** the plan the page already read (GET …/seatingplan): saves asking again */
  plan?: { areas: Area[]; priceCategories: Category[] }
  /** the first area's answer, read by the page alongside the chunk (before this visit held anything) */
  initial?: { areaId: number; answer: AreaAnswer }
  /** drawn before the page has loaded (ui/apps/public/plan-first.tsx): a chair's popup shows, its button waits for the page */
  waiting?: boolean
}

export default function SeatPicker(p: SeatPickerProps) {
  const noCanvas = useMemo(() => flag('nocanvas'), [])
  const noHammer = useMemo(() => flag('nohammer'), [])
  // the page's plan and first area (read while the chunk loaded) draw in the first render
  const [areas, setAreas] = useState<Area[] | null>(p.plan?.areas ?? null)
  const [categories, setCategories] = useState<Category[]>(p.plan?.priceCategories ?? [])
  const [areaId, setAreaId] = useState<number | null>(p.plan?.areas[0]?.id ?? null)
  const [chairs, setChairs] = useState<Chair[]>(() => (p.initial && p.initial.areaId === p.plan?.areas[0]?.id ? chairsOf(p.initial.answer) : []))
  const initialUsed = useRef(false)
  const [open, setOpen] = useState<Chair | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [labels, setLabels] = useState<Record<number, string>>({})
  const [picked, setPicked] = useState<Record<number, PickedSeat>>({})
  const held = Object.keys(p.chairs).length

  useEffect(() => {
    if (p.plan) return
    get<{ areas: Area[]; priceCategories: Category[] }>(`/proxy/api/public/events/${p.eventId}/seatingplan`)
      .then((r) => {
        setAreas(r.areas)
        setCategories(r.priceCategories)
        setAreaId(r.areas[0]?.id ?? null)
      })
      .catch((e) => setError(errorText(e)))
  }, [p.eventId])

  const load = (id: number) =>
    post<AreaAnswer>(`/proxy/api/public/events/${p.eventId}/seatingplanArea`, { areaId: id, identification: p.identification, chairFormat: 'columns' })
      .then((r) => setChairs(chairsOf(r)))
      .catch((e) => setError(errorText(e)))
  useEffect(() => {
    // the first area as the page read it: a fresh visit holds nothing yet, so it needs no second read
    if (!initialUsed.current && p.initial && p.initial.areaId === areaId) return void (initialUsed.current = true)
    if (areaId !== null) void load(areaId)
  }, [areaId])

  // the countdown ran out (the form cleared every hold): the chairs are free again, read them anew
  const before = useRef(held)
  useEffect(() => {
    if (before.current > 0 && held === 0 && areaId !== null) {
      setLabels({})
      setPicked({})
      setOpen(null)
      void load(areaId)
    }
    before.current = held
  }, [held])
  useEffect(() => p.onLabels?.(Object.keys(p.chairs).map((id) => labels[Number(id)] ?? '').filter(Boolean)), [p.chairs, labels])
  useEffect(() => p.onSeats?.(Object.keys(p.chairs).map((id) => picked[Number(id)]).filter((x): x is PickedSeat => !!x)), [p.chairs, picked])

  const bound = p.maxPerVisit > 0 ? p.maxPerVisit : 10
  const heldPlaces = Object.values(p.chairs).reduce((s, h) => s + h.amount, 0)
  const patch = (id: number, freeChairs: number) => setChairs((list) => list.map((c) => (c.id === id ? { ...c, freeChairs } : c)))

  const reserve = async (c: Chair, amount: number) => {
    setError(null)
    try {
      const r = await post<{ reservationToken: string; expireDate: string; freeChairs: number }>(`/proxy/api/public/events/${p.eventId}/seatingplan/reservation/chair`, {
        chairId: c.id,
        identification: p.identification,
        amount,
      })
      patch(c.id, r.freeChairs)
      setLabels((m) => ({ ...m, [c.id]: amount > 1 ? `${c.label} (${amount})` : c.label }))
      setPicked((m) => ({ ...m, [c.id]: { chairId: c.id, label: c.label, amount, priceCategoryId: c.priceCategory?.id ?? null } }))
      p.setChair(c.id, { token: r.reservationToken, amount, expireDate: r.expireDate })
      setOpen(null)
    } catch (e) {
      const free = e instanceof ApiError ? (e.body.freeChairs as number | undefined) : undefined
      if (typeof free === 'number' && free >= 0) patch(c.id, free)
      setError(errorText(e))
    }
  }
  const release = async (c: Chair) => {
    const h = p.chairs[c.id]
    if (!h) return
    setError(null)
    try {
      await api('DELETE', `/proxy/api/public/events/${p.eventId}/seatingplan/reservation/chair`, { reservationToken: h.token })
      patch(c.id, c.freeChairs + h.amount)
    } catch (e) {
      setError(errorText(e))
    }
    p.setChair(c.id, null)
    setOpen(null)
  }

  if (!areas) return error ? <Alert tone="error">{error}</Alert> : <Spinner />
  if (!areas.length) return null
  const area = areas.find((a) => a.id === areaId) ?? areas[0]
  const mine = (c: Chair) => !!p.chairs[c.id]
  const heldLabels = Object.keys(p.chairs).map((id) => labels[Number(id)] ?? chairs.find((c) => c.id === Number(id))?.label ?? '')
  return (
    <section class="seat-picker" aria-labelledby="seat-picker-title">
      <h3 id="seat-picker-title">{t('registration.seats.title')}</h3>
      {areas.length > 1 && (
        <div class="seat-areas" role="group" aria-label={t('registration.seats.area')}>
          {areas.map((a) => (
            <Button key={a.id} variant={a.id === area.id ? 'primary' : 'secondary'} aria-pressed={a.id === area.id} onClick={() => (setAreaId(a.id), setOpen(null))}>
              {a.displayName}
            </Button>
          ))}
        </div>
      )}
      {p.prices && chairs.some((c) => c.priceCategory && c.priceCategory.ticketCategoryId == null) && (
        // the organiser has not linked the plan's price categories to tickets: nothing is sold (SEATING_NOT_LINKED)
        <Alert tone="warn">{t('registration.seats.notLinked')}</Alert>
      )}
      <p class="seat-chosen" role="status">
        {held ? t('registration.seats.chosen', { labels: heldLabels.join(', ') }) : t('registration.seats.none')}
      </p>
      {held > 0 && !p.prices && heldPlaces !== p.persons && <p class="muted">{t('registration.seats.forPersons', { places: heldPlaces, persons: p.persons })}</p>}
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
      <ul class="seat-legend">
        {categories.map((c) => (
          <li key={c.id}>
            <span class="swatch" style={{ background: c.color }} /> {c.displayName}
            {p.prices?.[c.id] ? ` · ${p.prices[c.id]}` : ''}
          </li>
        ))}
        <li>
          <span class="swatch swatch-mine">✓</span> {t('registration.seats.legendMine')}
        </li>
        <li>
          <span class="swatch swatch-taken">×</span> {t('registration.seats.legendTaken')}
        </li>
      </ul>
      {!noCanvas && <PlanCanvas area={area} chairs={chairs} mine={p.chairs} touchGestures={!noHammer} onPick={setOpen} />}
      <SeatList chairs={chairs} mine={mine} open={noCanvas} onPick={setOpen} />
      {open && (
        <ChairPopup
          chair={chairs.find((c) => c.id === open.id) ?? open}
          hold={p.chairs[open.id]}
          room={bound - heldPlaces}
          price={open.priceCategory ? p.prices?.[open.priceCategory.id] : undefined}
          waiting={p.waiting}
          onReserve={reserve}
          onRelease={release}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  )
}
