// The guest's seat picker (register mode, agency-side.md §2.11, §9; guest-side.md §4): loaded as its
// own chunk only for events with a seating plan. One <canvas> draws every chair of the area, clicks
// and taps find their chair by geometry (no DOM node per chair), so 5,000 chairs stay smooth. Pan and
// pinch with pointer events, wheel zoom on desktops (zoom 1 to 20; the buttons step 0.2 up to 4).
// `?nocanvas` shows only the list, `?nohammer` leaves touch gestures to the page (tap still picks).
// The list of free seats by row is the keyboard and screen-reader way to the same chairs; states are
// told by mark and text (✓ yours, × taken), never by colour alone. Holds share the form's countdown.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiError, api, errorText, get, post } from '../../api/client'
import { t } from '../../i18n'
import type { SeatHolds } from '../form-engine'
import { Alert, Button, Spinner } from '../ui'

interface Category {
  id: number
  color: string
  displayName: string
  /** paid events: the ticket category a chair of this category is sold as */
  ticketCategoryId?: number | null
}
/** A chair the visit holds, for the page: the ticket of a paid event follows its price category. */
export interface PickedSeat {
  chairId: number
  label: string
  amount: number
  priceCategoryId: number | null
}
export interface Area {
  id: number
  displayName: string
  width: number
  height: number
  /** asset id of the background image (drawn to fill the area, as in the editor) */
  areaImage: number | null
}
export interface Chair {
  id: number
  label: string
  priceCategory: Category | null
  status: 'BLOCKED' | null
  options: string[]
  viewType: 'CIRCLE' | 'RECTANGLE'
  percentX: number
  percentY: number
  percentWidth: number
  percentHeight: number
  places: number
  freeChairs: number
  minAmount: number
  maxAmount: number
}

/** The seatingplanArea answer: the spec's { chairs }, or with chairFormat 'columns' one array per field. */
export type AreaAnswer = { chairs: Chair[] } | { chairColumns: { [K in keyof Chair]: K extends 'priceCategory' ? Array<number | null> : Array<Chair[K]> }; priceCategories: Category[] }

/** The chairs of an area answer; columns (what the picker asks for: a fraction of the JSON to parse) become Chair objects. */
export function chairsOf(answer: AreaAnswer): Chair[] {
  if ('chairs' in answer) return answer.chairs
  const c = answer.chairColumns
  const categories = new Map(answer.priceCategories.map((p) => [p.id, p]))
  const chairs: Chair[] = new Array(c.id.length)
  for (let i = 0; i < chairs.length; i++)
    chairs[i] = {
      id: c.id[i],
      label: c.label[i],
      priceCategory: categories.get(c.priceCategory[i] as number) ?? null,
      status: c.status[i],
      options: c.options[i],
      viewType: c.viewType[i],
      percentX: c.percentX[i],
      percentY: c.percentY[i],
      percentWidth: c.percentWidth[i],
      percentHeight: c.percentHeight[i],
      places: c.places[i],
      freeChairs: c.freeChairs[i],
      minAmount: c.minAmount[i],
      maxAmount: c.maxAmount[i],
    }
  return chairs
}

export const ZOOM_MIN = 1
export const ZOOM_MAX = 20
export const ZOOM_STEP = 0.2
export const ZOOM_BUTTON_MAX = 4

const flag = (k: string) => {
  const q = new URLSearchParams(location.search)
  return q.has(k) && q.get(k) !== 'false' && q.get(k) !== '0'
}

/** The row of a chair for the list: the label's first word ("A 12" → "A", "Tisch 3" → "Tisch"). */
export const rowOf = (label: string) => label.trim().split(/\s+/)[0] ?? ''

/** The chair under a point given in percent of the area (topmost first); circles by their ellipse. */
export function chairAt(chairs: Chair[], qx: number, qy: number): Chair | null {
  for (let i = chairs.length - 1; i >= 0; i--) {
    const c = chairs[i]
    if (qx < c.percentX || qy < c.percentY || qx > c.percentX + c.percentWidth || qy > c.percentY + c.percentHeight) continue
    if (c.viewType === 'CIRCLE') {
      const rx = c.percentWidth / 2
      const ry = c.percentHeight / 2
      const dx = (qx - c.percentX - rx) / rx
      const dy = (qy - c.percentY - ry) / ry
      if (dx * dx + dy * dy > 1) continue
    }
    return c
  }
  return null
}

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

function ChairPopup(p: { chair: Chair; hold?: { amount: number }; room: number; price?: string; waiting?: boolean; onReserve(c: Chair, n: number): Promise<void>; onRelease(c: Chair): Promise<void>; onClose(): void }) {
  const c = p.chair
  const max = Math.min(c.maxAmount, c.freeChairs, p.room)
  const min = Math.max(1, c.minAmount)
  const [amount, setAmount] = useState(Math.min(Math.max(min, 1), Math.max(max, min)))
  const [busy, setBusy] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => ref.current?.querySelector<HTMLElement>('button, select')?.focus(), [c.id])
  const run = async (f: () => Promise<void>) => {
    setBusy(true)
    await f()
    setBusy(false)
  }
  return (
    <div class="seat-popup" role="dialog" aria-modal="false" aria-labelledby="seat-popup-title" ref={ref} onKeyDown={(e) => e.key === 'Escape' && p.onClose()}>
      <h4 id="seat-popup-title">{c.label}</h4>
      <dl>
        {c.priceCategory && (
          <>
            <dt>{t('registration.seats.category')}</dt>
            <dd>
              <span class="swatch" style={{ background: c.priceCategory.color }} /> {c.priceCategory.displayName}
            </dd>
          </>
        )}
        {p.price && (
          <>
            <dt>{t('registration.seats.price')}</dt>
            <dd class="seat-price">{p.price}</dd>
          </>
        )}
        {c.options.map((o) => (
          <dd key={o}>{t(`registration.seats.options.${o}`)}</dd>
        ))}
        <dd>{t('registration.seats.free', { n: c.freeChairs, places: c.places })}</dd>
      </dl>
      {p.hold ? (
        <Button variant="secondary" busy={busy} onClick={() => run(() => p.onRelease(c))}>
          {t('registration.seats.release')}
        </Button>
      ) : c.status === 'BLOCKED' || c.freeChairs === 0 ? (
        <p class="muted">{t('errors.SEAT_NOT_AVAILABLE')}</p>
      ) : max < min ? (
        <p class="muted">{t('errors.SEAT_MAX_REACHED')}</p>
      ) : (
        <>
          {max > min && (
            <label class="seat-amount">
              {t('registration.seats.amount')}
              <select value={amount} onChange={(e) => setAmount(Number((e.target as HTMLSelectElement).value))}>
                {Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
          <Button busy={busy || p.waiting} onClick={() => run(() => p.onReserve(c, Math.min(Math.max(amount, min), max)))}>
            {t('registration.seats.reserve')}
          </Button>
        </>
      )}
      <Button variant="ghost" onClick={p.onClose}>
        {t('registration.seats.close')}
      </Button>
    </div>
  )
}

function SeatList(p: { chairs: Chair[]; mine(c: Chair): boolean; open: boolean; onPick(c: Chair): void }) {
  const [shown, setShown] = useState(p.open)
  const rows = useMemo(() => {
    if (!shown) return []
    const m = new Map<string, Chair[]>()
    for (const c of p.chairs) {
      if (!(p.mine(c) || (c.freeChairs > 0 && c.status !== 'BLOCKED'))) continue
      const r = rowOf(c.label)
      m.set(r, [...(m.get(r) ?? []), c])
    }
    return [...m.entries()]
  }, [shown, p.chairs, p.mine])
  return (
    <details class="seat-list" open={p.open} onToggle={(e) => setShown((e.target as HTMLDetailsElement).open)}>
      <summary>{t('registration.seats.list')}</summary>
      {rows.map(([row, list]) => (
        <div key={row} class="seat-row" role="group" aria-label={t('registration.seats.row', { row })}>
          <span class="seat-row-name">{t('registration.seats.row', { row })}</span>
          {list.map((c) => (
            <button key={c.id} type="button" class={`seat-chip ${p.mine(c) ? 'is-mine' : ''}`} aria-pressed={p.mine(c)} onClick={() => p.onPick(c)}>
              {p.mine(c) ? '✓ ' : ''}
              {c.label}
              {c.priceCategory ? ` · ${c.priceCategory.displayName}` : ''}
              {c.places > 1 ? ` · ${t('registration.seats.free', { n: c.freeChairs, places: c.places })}` : ''}
            </button>
          ))}
        </div>
      ))}
    </details>
  )
}

interface View {
  z: number
  x: number
  y: number
}

export function PlanCanvas(p: { area: Area; chairs: Chair[]; mine: Record<number, unknown>; touchGestures: boolean; onPick(c: Chair): void }) {
  const box = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const [size, setSize] = useState({ w: 0, h: 0 })
  const view = useRef<View>({ z: 1, x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  const frame = useRef(0)
  const props = useRef(p)
  props.current = p
  const image = useRef<HTMLImageElement | null>(null)
  useEffect(() => {
    image.current = null
    if (!p.area.areaImage) return
    const img = new Image()
    img.onload = () => {
      image.current = img
      redraw()
    }
    img.src = `/proxy/api/asset/${p.area.areaImage}?dimension=Regular_2000`
  }, [p.area.areaImage])

  // the canvas follows its box, resized at most every 100 ms (§9); measured before the first paint, so
  // the plan is drawn in the frame that first shows the picker
  useLayoutEffect(() => {
    const el = box.current!
    let timer: ReturnType<typeof setTimeout> | undefined
    const measure = () => {
      const w = el.clientWidth
      setSize({ w, h: Math.round((w * p.area.height) / p.area.width) })
    }
    measure()
    const ro = new ResizeObserver(() => {
      clearTimeout(timer)
      timer = setTimeout(measure, 100)
    })
    ro.observe(el)
    return () => (ro.disconnect(), clearTimeout(timer))
  }, [p.area.id])

  const draw = () => {
    frame.current = 0
    const cv = canvas.current
    if (!cv || !size.w) return
    const dpr = window.devicePixelRatio || 1
    const g = cv.getContext('2d')!
    const v = view.current
    g.setTransform(1, 0, 0, 1, 0, 0)
    g.clearRect(0, 0, cv.width, cv.height)
    g.setTransform(dpr * v.z, 0, 0, dpr * v.z, dpr * v.x, dpr * v.y)
    const { chairs, mine } = props.current
    if (image.current) {
      g.globalAlpha = 0.6
      g.drawImage(image.current, 0, 0, size.w, size.h)
      g.globalAlpha = 1
    }
    const sx = size.w / 100
    const sy = size.h / 100
    const line = 1 / v.z
    // Batched: one path per colour, filled once, so 5,000 chairs are a few canvas calls instead of
    // 10,000; chairs outside the visible part are skipped when zoomed in. The white outline only when
    // chairs are big enough on screen to need it: stroking thousands of tiny ellipses cost four times
    // their fill (measured in Chromium, 4× CPU throttling: 5,000 chairs 110 ms filled, 480 ms outlined).
    const x0 = -v.x / v.z
    const y0 = -v.y / v.z
    const x1 = x0 + size.w / v.z
    const y1 = y0 + size.h / v.z
    // a chair of a few pixels on screen is drawn as its box: round or square looks the same there,
    // and a box costs half an ellipse to fill
    const px = chairs.length > 0 ? Math.min(chairs[0].percentWidth * sx, chairs[0].percentHeight * sy) * v.z : 0
    const boxes = px < 6
    const fills = new Map<string, Path2D>()
    const crosses = new Map<number, Path2D>()
    const own: Array<{ x: number; y: number; w: number; h: number; c: Chair }> = []
    const labelled: Array<{ x: number; y: number; w: number; h: number; m: number; taken: boolean; c: Chair }> = []
    for (const c of chairs) {
      const x = c.percentX * sx
      const y = c.percentY * sy
      const w = c.percentWidth * sx
      const h = c.percentHeight * sy
      if (x > x1 || y > y1 || x + w < x0 || y + h < y0) continue
      const isMine = !!mine[c.id]
      const taken = !isMine && (c.freeChairs <= 0 || c.status === 'BLOCKED')
      const fill = taken ? '#d0d4da' : (c.priceCategory?.color ?? '#5c7cfa')
      let path = fills.get(fill)
      if (!path) fills.set(fill, (path = new Path2D()))
      if (c.viewType === 'CIRCLE' && !boxes) {
        path.moveTo(x + w, y + h / 2)
        path.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, Math.PI * 2)
      } else path.rect(x, y, w, h)
      // marks besides colour: ✓ yours, × taken
      const m = Math.min(w, h)
      if (isMine) own.push({ x, y, w, h, c })
      else if (taken) {
        const lw = Math.round(Math.max(m * 0.08, line) * 100) / 100
        let cross = crosses.get(lw)
        if (!cross) crosses.set(lw, (cross = new Path2D()))
        cross.moveTo(x + w / 2 - m * 0.22, y + h / 2 - m * 0.22)
        cross.lineTo(x + w / 2 + m * 0.22, y + h / 2 + m * 0.22)
        cross.moveTo(x + w / 2 + m * 0.22, y + h / 2 - m * 0.22)
        cross.lineTo(x + w / 2 - m * 0.22, y + h / 2 + m * 0.22)
      }
      if (m * v.z > 34) labelled.push({ x, y, w, h, m, taken, c })
    }
    const outline = px >= 12
    g.lineWidth = line
    g.strokeStyle = '#fff'
    for (const [fill, path] of fills) {
      g.fillStyle = fill
      g.fill(path)
      if (outline) g.stroke(path)
    }
    g.strokeStyle = '#6b7280'
    for (const [lw, cross] of crosses) {
      g.lineWidth = lw
      g.stroke(cross)
    }
    for (const { x, y, w, h, c } of own) {
      const m = Math.min(w, h)
      g.beginPath()
      if (c.viewType === 'CIRCLE') g.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, Math.PI * 2)
      else g.rect(x, y, w, h)
      g.lineWidth = 3 * line
      g.strokeStyle = '#111'
      g.stroke()
      g.beginPath()
      g.moveTo(x + w / 2 - m * 0.25, y + h / 2)
      g.lineTo(x + w / 2 - m * 0.05, y + h / 2 + m * 0.2)
      g.lineTo(x + w / 2 + m * 0.28, y + h / 2 - m * 0.22)
      g.lineWidth = Math.max(m * 0.14, line)
      g.strokeStyle = '#fff'
      g.stroke()
    }
    g.textAlign = 'center'
    for (const { x, y, w, h, m, taken, c } of labelled) {
      g.fillStyle = taken ? '#374151' : '#fff'
      g.font = `${Math.min(m * 0.22, 14 / v.z)}px sans-serif`
      g.fillText(c.label, x + w / 2, y + h - m * 0.12)
    }
  }
  const redraw = () => {
    if (!frame.current) frame.current = requestAnimationFrame(draw)
  }
  // new chairs, holds or size: drawn before the browser paints them (a frame earlier than a redraw);
  // pan, zoom and the background image go through redraw, one draw per frame
  useLayoutEffect(() => {
    if (frame.current) cancelAnimationFrame(frame.current)
    draw()
  }, [p.chairs, p.mine, size])

  const clamp = (v: View): View => {
    const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, v.z))
    return { z, x: Math.min(0, Math.max(size.w - size.w * z, v.x)), y: Math.min(0, Math.max(size.h - size.h * z, v.y)) }
  }
  /** zooms to z keeping the point (px, py) of the canvas where it is */
  const zoomTo = (z: number, px = size.w / 2, py = size.h / 2) => {
    const v = view.current
    const nz = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, z))
    view.current = clamp({ z: nz, x: px - ((px - v.x) * nz) / v.z, y: py - ((py - v.y) * nz) / v.z })
    setZoom(view.current.z)
    redraw()
  }

  // wheel zoom on desktops (a non-passive listener, so the page does not scroll meanwhile)
  useEffect(() => {
    const cv = canvas.current
    if (!cv) return
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      const r = cv.getBoundingClientRect()
      zoomTo(view.current.z * Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top)
    }
    cv.addEventListener('wheel', onWheel, { passive: false })
    return () => cv.removeEventListener('wheel', onWheel)
  }, [size])

  // pointers: one drags, two pinch; a pointer that hardly moved picks the chair under it
  const pointers = useRef(new Map<number, { x: number; y: number; sx: number; sy: number }>())
  const pinch = useRef<{ d: number; z: number } | null>(null)
  const moved = useRef(false)
  const local = (e: PointerEvent) => {
    const r = canvas.current!.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }
  const gestures = (e: PointerEvent) => e.pointerType !== 'touch' || p.touchGestures
  const down = (e: PointerEvent) => {
    picked.current = null
    const q = local(e)
    pointers.current.set(e.pointerId, { ...q, sx: q.x, sy: q.y })
    if (pointers.current.size === 1) moved.current = false
    if (gestures(e)) canvas.current!.setPointerCapture(e.pointerId)
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()]
      pinch.current = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, z: view.current.z }
      moved.current = true
    }
  }
  const move = (e: PointerEvent) => {
    const prev = pointers.current.get(e.pointerId)
    if (!prev || !gestures(e)) return
    const q = local(e)
    pointers.current.set(e.pointerId, { ...prev, ...q })
    if (Math.hypot(q.x - prev.sx, q.y - prev.sy) > 6) moved.current = true
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()]
      zoomTo((pinch.current.z * Math.hypot(a.x - b.x, a.y - b.y)) / pinch.current.d, (a.x + b.x) / 2, (a.y + b.y) / 2)
    } else if (pointers.current.size === 1 && moved.current) {
      const v = view.current
      view.current = clamp({ ...v, x: v.x + q.x - prev.x, y: v.y + q.y - prev.y })
      redraw()
    }
  }
  const up = (e: PointerEvent) => {
    const had = pointers.current.get(e.pointerId)
    pointers.current.delete(e.pointerId)
    if (pointers.current.size < 2) pinch.current = null
    if (!had || moved.current || pointers.current.size > 0) return
    const v = view.current
    const q = local(e)
    picked.current = chairAt(props.current.chairs, ((q.x - v.x) / v.z / size.w) * 100, ((q.y - v.y) / v.z / size.h) * 100)
  }
  // The popup opens on the click that follows the tap, not on pointerup: opened earlier, a phone's
  // click after the tap lands on the popup (sticky at the bottom of the screen) when the chair lay
  // under it, and reserved the seat without the guest asking.
  const picked = useRef<Chair | null>(null)
  const click = () => {
    const c = picked.current
    picked.current = null
    if (c) p.onPick(c)
  }
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1
  return (
    <div class="seat-canvas-box" ref={box}>
      <canvas
        ref={canvas}
        width={Math.round(size.w * dpr)}
        height={Math.round(size.h * dpr)}
        style={{ width: `${size.w}px`, height: `${size.h}px`, touchAction: p.touchGestures ? 'none' : 'manipulation' }}
        role="img"
        aria-label={t('registration.seats.canvasLabel', { area: p.area.displayName })}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        onClick={click}
      />
      <div class="seat-zoom">
        <Button variant="secondary" aria-label={t('registration.seats.zoomIn')} disabled={zoom + ZOOM_STEP > ZOOM_BUTTON_MAX + 1e-9} onClick={() => zoomTo(Math.min(ZOOM_BUTTON_MAX, view.current.z + ZOOM_STEP))}>
          +
        </Button>
        <Button variant="secondary" aria-label={t('registration.seats.zoomOut')} disabled={zoom <= ZOOM_MIN} onClick={() => zoomTo(view.current.z - ZOOM_STEP)}>
          −
        </Button>
        <Button variant="ghost" onClick={() => zoomTo(1)}>
          {t('registration.seats.zoomReset')}
        </Button>
      </div>
    </div>
  )
}
