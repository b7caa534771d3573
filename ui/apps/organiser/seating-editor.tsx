// The organiser's seat-plan editor (manage mode, agency-side.md §2.11, docs/seating.md): areas, price
// categories with colours, tools for a row of N chairs, a block of rows × columns, a table with N
// places, numbering (row letters; seats left to right or from the middle), select with a rectangle,
// move with snapping, delete, copy/paste, undo/redo, options and block/unblock. Save sends the whole
// plan (PUT …/seatingplan); the editor keeps its own history. Copy from another event and the
// occupancy per price category sit beside it. An SVG in area percent: the organiser's plan is edited,
// not sold, so one node per chair is fine here.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, errorText, get, post, put } from '../../api/client'
import { toast } from '../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { type Area, type Chair, PlanCanvas } from '../../components/seat-picker'
import type { EventFull } from './event-model'

export interface EChair {
  uid: string
  id?: number
  label: string
  priceCategory: string | null
  viewType: 'CIRCLE' | 'RECTANGLE'
  percentX: number
  percentY: number
  percentWidth: number
  percentHeight: number
  options: Array<'LOVE_CHAIR' | 'DISABLED_CHAIR'>
  status: 'BLOCKED' | null
  places: number
  minAmount: number
  maxAmount: number
  freeChairs?: number
}
interface ECategory {
  key: string
  id?: number
  displayName: string
  color: string
}
interface EArea {
  key: string
  id?: number
  displayName: string
  width: number
  height: number
  areaImage: number | null
  chairs: EChair[]
}
export interface EPlan {
  priceCategories: ECategory[]
  areas: EArea[]
}

let seq = 0
const uid = () => `n${Date.now().toString(36)}${(++seq).toString(36)}`
const round = (n: number) => Math.round(n * 100) / 100
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))
export const SNAP = 0.5
const snap = (n: number, on: boolean) => (on ? Math.round(n / SNAP) * SNAP : n)

/** Row letters A … Z, AA … */
export function rowLetter(i: number): string {
  let s = ''
  let n = i
  do {
    s = String.fromCharCode(65 + (n % 26)) + s
    n = Math.floor(n / 26) - 1
  } while (n >= 0)
  return s
}

/** Seat numbers of a row of n: left to right 1…n, or from the middle (1 in the middle, odd to the left, even to the right). */
export function seatNumbers(n: number, scheme: 'LTR' | 'MIDDLE'): number[] {
  if (scheme === 'LTR') return Array.from({ length: n }, (_, i) => i + 1)
  const out = new Array<number>(n)
  const mid = Math.floor((n - 1) / 2)
  out[mid] = 1
  let odd = 3
  let even = 2
  for (let d = 1; d < n; d++) {
    if (mid + d < n) (out[mid + d] = even), (even += 2)
    if (mid - d >= 0) (out[mid - d] = odd), (odd += 2)
  }
  return out
}

/**
 * A curved row: the top-left corners of n chairs (w × h in percent) on an arc of `radius` percent of
 * the area's width, spanning `angle` degrees, bowed towards the top (the stage) and centred on the
 * area; `top` is where the arc's highest point goes. Computed in the area's pixels, so the arc stays
 * round whatever the area's proportions.
 */
export function arcPositions(n: number, radius: number, angle: number, area: { width: number; height: number }, top: number, w: number, h: number): Array<{ x: number; y: number }> {
  const R = (radius / 100) * area.width
  const cx = area.width / 2
  const cy = (top / 100) * area.height + R
  const span = (Math.min(360, Math.max(0, angle)) * Math.PI) / 180
  return Array.from({ length: n }, (_, i) => {
    const a = n === 1 ? 0 : -span / 2 + (span * i) / (n - 1)
    return { x: ((cx + R * Math.sin(a)) / area.width) * 100 - w / 2, y: ((cy - R * Math.cos(a)) / area.height) * 100 }
  })
}

export type AlignMode = 'LEFT' | 'RIGHT' | 'TOP' | 'BOTTOM' | 'CENTER_H' | 'CENTER_V' | 'DISTRIBUTE_H' | 'DISTRIBUTE_V'

/**
 * The align tool: new positions of the selected chairs. Left/right/top/bottom line their edges up
 * with the outermost chair; centre lines up their middles on the selection's middle; distribute
 * spaces the chairs evenly between the first and the last (by their middles, in their order).
 */
export function alignChairs<C extends { uid: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>(chairs: C[], mode: AlignMode): Map<string, C> {
  const out = new Map<string, C>()
  if (chairs.length < 2) return out
  const left = Math.min(...chairs.map((c) => c.percentX))
  const right = Math.max(...chairs.map((c) => c.percentX + c.percentWidth))
  const top = Math.min(...chairs.map((c) => c.percentY))
  const bottom = Math.max(...chairs.map((c) => c.percentY + c.percentHeight))
  const distribute = (axis: 'x' | 'y') => {
    const pos = (c: C) => (axis === 'x' ? c.percentX + c.percentWidth / 2 : c.percentY + c.percentHeight / 2)
    const sorted = [...chairs].sort((a, b) => pos(a) - pos(b))
    const first = pos(sorted[0])
    const step = (pos(sorted[sorted.length - 1]) - first) / (sorted.length - 1)
    sorted.forEach((c, i) => out.set(c.uid, axis === 'x' ? { ...c, percentX: round(first + step * i - c.percentWidth / 2) } : { ...c, percentY: round(first + step * i - c.percentHeight / 2) }))
  }
  if (mode === 'DISTRIBUTE_H') distribute('x')
  else if (mode === 'DISTRIBUTE_V') distribute('y')
  else
    for (const c of chairs) {
      const at =
        mode === 'LEFT' ? { percentX: left }
        : mode === 'RIGHT' ? { percentX: right - c.percentWidth }
        : mode === 'TOP' ? { percentY: top }
        : mode === 'BOTTOM' ? { percentY: bottom - c.percentHeight }
        : mode === 'CENTER_H' ? { percentX: round((left + right) / 2 - c.percentWidth / 2) }
        : { percentY: round((top + bottom) / 2 - c.percentHeight / 2) }
      out.set(c.uid, { ...c, ...at })
    }
  return out
}

const fromServer = (r: any): EPlan => ({
  priceCategories: r.priceCategories.map((p: any) => ({ key: `k${p.id}`, id: p.id, displayName: p.displayName, color: p.color })),
  areas: r.areas.map((a: any) => ({
    key: `a${a.id}`,
    id: a.id,
    displayName: a.displayName,
    width: a.width,
    height: a.height,
    areaImage: a.areaImage,
    chairs: a.chairs.map((c: any) => ({ ...c, uid: `c${c.id}`, priceCategory: c.priceCategory ? `k${c.priceCategory.id}` : null })),
  })),
})

const toServer = (p: EPlan) => ({
  priceCategories: p.priceCategories.map(({ key, id, displayName, color }) => ({ key, id, displayName, color })),
  areas: p.areas.map((a) => ({
    id: a.id,
    displayName: a.displayName,
    width: a.width,
    height: a.height,
    areaImage: a.areaImage,
    chairs: a.chairs.map(({ uid: _u, freeChairs: _f, ...c }) => ({ ...c, percentX: round(c.percentX), percentY: round(c.percentY), percentWidth: round(c.percentWidth), percentHeight: round(c.percentHeight) })),
  })),
})

/** Where new chairs go: below everything the area already has. */
const nextTop = (a: EArea) => (a.chairs.length ? Math.max(...a.chairs.map((c) => c.percentY + c.percentHeight)) + 3 : 8)

const COLORS = ['#c2410c', '#1d4ed8', '#15803d', '#7e22ce', '#b45309', '#0e7490']

export function SeatingTab({ event }: { event: EventFull }) {
  const [plan, setPlan] = useState<EPlan | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [areaKey, setAreaKey] = useState<string | null>(null)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [snapOn, setSnapOn] = useState(true)
  const [busy, setBusy] = useState(false)
  const [dirty, setDirty] = useState(false)
  const history = useRef<{ past: EPlan[]; future: EPlan[] }>({ past: [], future: [] })
  const clipboard = useRef<EChair[]>([])
  const [occupancyKey, setOccupancyKey] = useState(0)

  const load = () =>
    get<any>(`/proxy/api/events/${event.id}/seatingplan`)
      .then((r) => {
        const p = fromServer(r)
        setPlan(p)
        setAreaKey((k) => (k && p.areas.some((a) => a.key === k) ? k : (p.areas[0]?.key ?? null)))
        setDirty(false)
        setOccupancyKey((n) => n + 1)
      })
      .catch((e) => setError(errorText(e)))
  useEffect(() => void load(), [event.id])

  /** every change goes through here: one step of undo */
  const change = (f: (p: EPlan) => EPlan) =>
    setPlan((p) => {
      if (!p) return p
      history.current.past.push(p)
      if (history.current.past.length > 200) history.current.past.shift()
      history.current.future = []
      setDirty(true)
      return f(p)
    })
  const undo = () =>
    setPlan((p) => {
      const prev = history.current.past.pop()
      if (!p || !prev) return p
      history.current.future.push(p)
      return prev
    })
  const redo = () =>
    setPlan((p) => {
      const next = history.current.future.pop()
      if (!p || !next) return p
      history.current.past.push(p)
      return next
    })
  const area = plan?.areas.find((a) => a.key === areaKey) ?? null
  const changeArea = (f: (a: EArea) => EArea) => change((p) => ({ ...p, areas: p.areas.map((a) => (a.key === areaKey ? f(a) : a)) }))
  const changeSelected = (f: (c: EChair) => EChair) => changeArea((a) => ({ ...a, chairs: a.chairs.map((c) => (selected.has(c.uid) ? f(c) : c)) }))
  const addChairs = (chairs: EChair[]) => {
    changeArea((a) => ({ ...a, chairs: [...a.chairs, ...chairs] }))
    setSelected(new Set(chairs.map((c) => c.uid)))
  }
  const remove = () => {
    if (!selected.size) return
    changeArea((a) => ({ ...a, chairs: a.chairs.filter((c) => !selected.has(c.uid)) }))
    setSelected(new Set())
  }
  const copy = () => {
    clipboard.current = area?.chairs.filter((c) => selected.has(c.uid)) ?? []
  }
  const paste = () => {
    if (!clipboard.current.length) return
    addChairs(clipboard.current.map(({ id: _id, freeChairs: _f, ...c }) => ({ ...c, uid: uid(), percentX: clamp(c.percentX + 2, 0, 98), percentY: clamp(c.percentY + 2, 0, 98) })))
  }

  // keyboard: Entf deletes, Strg+Z/Y undo/redo, Strg+C/V copy/paste (not while typing in a field)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) return
      const mod = e.ctrlKey || e.metaKey
      if (e.key === 'Delete' || e.key === 'Backspace') remove()
      else if (mod && e.key.toLowerCase() === 'z') e.shiftKey ? redo() : undo()
      else if (mod && e.key.toLowerCase() === 'y') redo()
      else if (mod && e.key.toLowerCase() === 'c') copy()
      else if (mod && e.key.toLowerCase() === 'v') paste()
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })

  const save = async () => {
    if (!plan) return
    setBusy(true)
    setError(null)
    try {
      const r = await put<any>(`/proxy/api/events/${event.id}/seatingplan`, toServer(plan))
      const p = fromServer(r)
      setPlan(p)
      setAreaKey((k) => {
        const i = plan.areas.findIndex((a) => a.key === k)
        return p.areas[Math.max(0, i)]?.key ?? null
      })
      setSelected(new Set())
      history.current = { past: [], future: [] }
      setDirty(false)
      setOccupancyKey((n) => n + 1)
      toast(t('seating.saved'))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  if (!plan) return error ? <Alert tone="error">{error}</Alert> : <Spinner />
  const sel = area?.chairs.filter((c) => selected.has(c.uid)) ?? []
  const categoryOf = (k: string | null) => plan.priceCategories.find((c) => c.key === k)
  return (
    <div class="seating-editor">
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
      <div class="toolbar">
        <Button onClick={save} busy={busy} disabled={!dirty}>
          {t('seating.save')}
        </Button>
        <Button variant="secondary" onClick={undo} disabled={!history.current.past.length}>
          {t('seating.undo')}
        </Button>
        <Button variant="secondary" onClick={redo} disabled={!history.current.future.length}>
          {t('seating.redo')}
        </Button>
        <label class="inline-check">
          <input type="checkbox" checked={snapOn} onChange={(e) => setSnapOn((e.target as HTMLInputElement).checked)} /> {t('seating.snap')}
        </label>
        <span class="toolbar-spacer" />
        <CopyFrom event={event} onCopied={load} />
      </div>
      <div class="seating-layout">
        <div class="seating-side">
          <Categories plan={plan} change={change} />
          <Card>
            <h3>{t('seating.areas')}</h3>
            <div class="button-row" role="group" aria-label={t('seating.areas')}>
              {plan.areas.map((a) => (
                <Button key={a.key} variant={a.key === areaKey ? 'primary' : 'secondary'} aria-pressed={a.key === areaKey} onClick={() => (setAreaKey(a.key), setSelected(new Set()))}>
                  {a.displayName}
                </Button>
              ))}
              <Button
                variant="ghost"
                onClick={() => {
                  const key = uid()
                  change((p) => ({ ...p, areas: [...p.areas, { key, displayName: t('seating.newArea', { n: p.areas.length + 1 }), width: 1500, height: 1000, areaImage: null, chairs: [] }] }))
                  setAreaKey(key)
                }}
              >
                {t('seating.addArea')}
              </Button>
            </div>
            {area && (
              <div class="form-grid seating-area-form">
                <label class="field field-full">
                  {t('seating.areaName')}
                  <input value={area.displayName} onChange={(e) => changeArea((a) => ({ ...a, displayName: (e.target as HTMLInputElement).value }))} />
                </label>
                <label class="field field-half">
                  {t('seating.width')}
                  <input type="number" min={100} max={20000} value={area.width} onChange={(e) => changeArea((a) => ({ ...a, width: clamp(Number((e.target as HTMLInputElement).value) || 1500, 100, 20000) }))} />
                </label>
                <label class="field field-half">
                  {t('seating.height')}
                  <input type="number" min={100} max={20000} value={area.height} onChange={(e) => changeArea((a) => ({ ...a, height: clamp(Number((e.target as HTMLInputElement).value) || 1000, 100, 20000) }))} />
                </label>
                <label class="field field-full">
                  {t('seating.image')}
                  <input
                    type="file"
                    accept="image/png,image/jpeg,image/webp"
                    onChange={async (e) => {
                      const file = (e.target as HTMLInputElement).files?.[0]
                      if (!file) return
                      try {
                        // a public image (guests see it behind the plan), an asset of the agency
                        const form = new FormData()
                        form.append('file', file)
                        form.append('fileName', file.name)
                        form.append('type', 'EVENT')
                        form.append('secure', 'false')
                        const a = await api<{ id: number }>('POST', '/proxy/api/asset', form)
                        changeArea((x) => ({ ...x, areaImage: a.id }))
                      } catch (x) {
                        setError(errorText(x))
                      }
                    }}
                  />
                </label>
                {area.areaImage && (
                  <Button variant="ghost" onClick={() => changeArea((a) => ({ ...a, areaImage: null }))}>
                    {t('seating.imageRemove')}
                  </Button>
                )}
              </div>
            )}
          </Card>
          {area && <Tools plan={plan} area={area} onAdd={addChairs} />}
        </div>
        <div class="seating-main">
          {area ? (
            <>
              <PlanSvg area={area} categoryOf={categoryOf} selected={selected} setSelected={setSelected} snapOn={snapOn} onMove={(moved) => changeArea((a) => ({ ...a, chairs: a.chairs.map((c) => moved.get(c.uid) ?? c) }))} />
              <p class="muted">{t('seating.hint')}</p>
            </>
          ) : (
            <Alert tone="info">{t('seating.noArea')}</Alert>
          )}
          {sel.length > 0 && (
            <Card class="seating-selection" aria-label={t('seating.selection', { n: sel.length })}>
              <h3>{t('seating.selection', { n: sel.length })}</h3>
              {sel.length === 1 && (
                <label class="field">
                  {t('seating.label')}
                  <input value={sel[0].label} onChange={(e) => changeSelected((c) => ({ ...c, label: (e.target as HTMLInputElement).value.slice(0, 40) }))} />
                </label>
              )}
              <label class="field">
                {t('seating.category')}
                <select value={sel.every((c) => c.priceCategory === sel[0].priceCategory) ? (sel[0].priceCategory ?? '') : '*'} onChange={(e) => changeSelected((c) => ({ ...c, priceCategory: (e.target as HTMLSelectElement).value || null }))}>
                  <option value="">{t('seating.noCategory')}</option>
                  {plan.priceCategories.map((p) => (
                    <option key={p.key} value={p.key}>
                      {p.displayName}
                    </option>
                  ))}
                </select>
              </label>
              {(['LOVE_CHAIR', 'DISABLED_CHAIR'] as const).map((o) => (
                <label key={o} class="inline-check">
                  <input
                    type="checkbox"
                    checked={sel.every((c) => c.options.includes(o))}
                    onChange={(e) => {
                      const on = (e.target as HTMLInputElement).checked
                      changeSelected((c) => ({ ...c, options: on ? [...new Set([...c.options, o])] : c.options.filter((x) => x !== o) }))
                    }}
                  />{' '}
                  {t(`registration.seats.options.${o}`)}
                </label>
              ))}
              {sel.length > 1 && (
                <div class="button-row seating-align" role="group" aria-label={t('seating.align')}>
                  {(['LEFT', 'CENTER_H', 'RIGHT', 'TOP', 'CENTER_V', 'BOTTOM', 'DISTRIBUTE_H', 'DISTRIBUTE_V'] as const).map((m) => (
                    <Button key={m} variant="secondary" disabled={m.startsWith('DISTRIBUTE') && sel.length < 3} onClick={() => {
                      const moved = alignChairs(sel, m)
                      changeArea((a) => ({ ...a, chairs: a.chairs.map((c) => moved.get(c.uid) ?? c) }))
                    }}>
                      {t(`seating.align.${m}`)}
                    </Button>
                  ))}
                </div>
              )}
              <div class="button-row">
                <Button variant="secondary" onClick={() => changeSelected((c) => ({ ...c, status: sel.every((x) => x.status === 'BLOCKED') ? null : 'BLOCKED' }))}>
                  {sel.every((x) => x.status === 'BLOCKED') ? t('seating.unblock') : t('seating.block')}
                </Button>
                <Button variant="secondary" onClick={copy}>
                  {t('seating.copy')}
                </Button>
                <Button variant="secondary" onClick={paste}>
                  {t('seating.paste')}
                </Button>
                <Button variant="danger" onClick={remove}>
                  {t('seating.delete')}
                </Button>
              </div>
            </Card>
          )}
          <Occupancy eventId={event.id} reloadKey={occupancyKey} />
        </div>
      </div>
    </div>
  )
}

function Categories({ plan, change }: { plan: EPlan; change(f: (p: EPlan) => EPlan): void }) {
  const set = (key: string, patch: Partial<ECategory>) => change((p) => ({ ...p, priceCategories: p.priceCategories.map((c) => (c.key === key ? { ...c, ...patch } : c)) }))
  return (
    <Card>
      <h3>{t('seating.categories')}</h3>
      {plan.priceCategories.map((c, i) => (
        <div key={c.key} class="seating-category">
          <input type="color" aria-label={t('seating.categoryColor', { n: i + 1 })} value={c.color} onChange={(e) => set(c.key, { color: (e.target as HTMLInputElement).value })} />
          <input aria-label={t('seating.categoryName', { n: i + 1 })} value={c.displayName} onChange={(e) => set(c.key, { displayName: (e.target as HTMLInputElement).value })} />
        </div>
      ))}
      <Button
        variant="ghost"
        onClick={() => change((p) => ({ ...p, priceCategories: [...p.priceCategories, { key: uid(), displayName: t('seating.newCategory', { n: p.priceCategories.length + 1 }), color: COLORS[p.priceCategories.length % COLORS.length] }] }))}
      >
        {t('seating.addCategory')}
      </Button>
    </Card>
  )
}

type Tool = 'ROW' | 'ARC' | 'BLOCK' | 'TABLE'

function Tools({ plan, area, onAdd }: { plan: EPlan; area: EArea; onAdd(c: EChair[]): void }) {
  const [tool, setTool] = useState<Tool>('BLOCK')
  const [rows, setRows] = useState(3)
  const [cols, setCols] = useState(10)
  const [firstRow, setFirstRow] = useState('A')
  const [scheme, setScheme] = useState<'LTR' | 'MIDDLE'>('LTR')
  const [spacing, setSpacing] = useState(1)
  const [places, setPlaces] = useState(8)
  const [radius, setRadius] = useState(30)
  const [angle, setAngle] = useState(90)
  /** null: not chosen yet (the first category); '': none */
  const [category, setCategory] = useState<string | null>(null)
  // keys change when a save gives categories their ids: a stale choice falls back to the first category
  const cat = category === '' ? null : plan.priceCategories.some((c) => c.key === category) ? category : (plan.priceCategories[0]?.key ?? null)
  const build = () => {
    const size = 2.5
    const top = nextTop(area)
    const out: EChair[] = []
    if (tool === 'TABLE') {
      const n = area.chairs.filter((c) => c.places > 1).length + 1
      out.push({ uid: uid(), label: t('seating.tableLabel', { n }), priceCategory: cat, viewType: 'CIRCLE', percentX: 10, percentY: clamp(top, 0, 88), percentWidth: 8, percentHeight: 12, options: [], status: null, places, minAmount: 1, maxAmount: places })
      return onAdd(out)
    }
    if (tool === 'ARC') {
      const h = (size * area.width) / area.height
      const letter = /^[A-Za-z]$/.test(firstRow) ? firstRow.toUpperCase() : firstRow
      const nums = seatNumbers(cols, scheme)
      arcPositions(cols, radius, angle, area, clamp(top, 0, 90), size, h).forEach((q, j) =>
        out.push({ uid: uid(), label: `${letter} ${nums[j]}`, priceCategory: cat, viewType: 'CIRCLE', percentX: clamp(q.x, 0, 100 - size), percentY: clamp(q.y, 0, 100 - h), percentWidth: size, percentHeight: h, options: [], status: null, places: 1, minAmount: 1, maxAmount: 1 }),
      )
      return onAdd(out)
    }
    const r = tool === 'ROW' ? 1 : rows
    const start = Math.max(0, firstRow.toUpperCase().charCodeAt(0) - 65)
    const nums = seatNumbers(cols, scheme)
    for (let i = 0; i < r; i++) {
      const letter = /^[A-Za-z]$/.test(firstRow) ? rowLetter(start + i) : `${firstRow}${i + 1}`
      for (let j = 0; j < cols; j++) {
        out.push({
          uid: uid(),
          label: `${letter} ${nums[j]}`,
          priceCategory: cat,
          viewType: 'CIRCLE',
          percentX: clamp(10 + j * (size + spacing), 0, 100 - size),
          percentY: clamp(top + i * (size * 1.5 + spacing), 0, 100 - size * 1.5),
          percentWidth: size,
          percentHeight: size * 1.5,
          options: [],
          status: null,
          places: 1,
          minAmount: 1,
          maxAmount: 1,
        })
      }
    }
    onAdd(out)
  }
  const num = (v: number, set: (n: number) => void, label: string, min: number, max: number, step = 1) => (
    <label class="field field-half">
      {label}
      <input type="number" min={min} max={max} step={step} value={v} onChange={(e) => set(clamp(Number((e.target as HTMLInputElement).value) || min, min, max))} />
    </label>
  )
  return (
    <Card>
      <h3>{t('seating.tools')}</h3>
      <div class="button-row" role="group" aria-label={t('seating.tools')}>
        {(['ROW', 'ARC', 'BLOCK', 'TABLE'] as const).map((k) => (
          <Button key={k} variant={tool === k ? 'primary' : 'secondary'} aria-pressed={tool === k} onClick={() => setTool(k)}>
            {t(`seating.tool.${k}`)}
          </Button>
        ))}
      </div>
      <div class="form-grid">
        {tool === 'BLOCK' && num(rows, setRows, t('seating.rows'), 1, 50)}
        {tool !== 'TABLE' && num(cols, setCols, tool === 'BLOCK' ? t('seating.columns') : t('seating.chairs'), 1, 100)}
        {(tool === 'ROW' || tool === 'BLOCK') && num(spacing, setSpacing, t('seating.spacing'), 0, 10, 0.5)}
        {tool === 'ARC' && num(radius, setRadius, t('seating.radius'), 5, 100)}
        {tool === 'ARC' && num(angle, setAngle, t('seating.angle'), 10, 360, 5)}
        {tool === 'TABLE' && num(places, setPlaces, t('seating.places'), 2, 100)}
        {tool !== 'TABLE' && (
          <>
            <label class="field field-half">
              {t('seating.firstRow')}
              <input value={firstRow} maxLength={3} onChange={(e) => setFirstRow((e.target as HTMLInputElement).value.trim() || 'A')} />
            </label>
            <label class="field field-half">
              {t('seating.numbering')}
              <select value={scheme} onChange={(e) => setScheme((e.target as HTMLSelectElement).value as 'LTR' | 'MIDDLE')}>
                <option value="LTR">{t('seating.numbering.LTR')}</option>
                <option value="MIDDLE">{t('seating.numbering.MIDDLE')}</option>
              </select>
            </label>
          </>
        )}
        <label class="field field-half">
          {t('seating.category')}
          <select value={cat ?? ''} onChange={(e) => setCategory((e.target as HTMLSelectElement).value)}>
            <option value="">{t('seating.noCategory')}</option>
            {plan.priceCategories.map((p) => (
              <option key={p.key} value={p.key}>
                {p.displayName}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Button onClick={build}>{t(`seating.place.${tool}`)}</Button>
    </Card>
  )
}

function PlanSvg(p: { area: EArea; categoryOf(k: string | null): ECategory | undefined; selected: Set<string>; setSelected(s: Set<string>): void; snapOn: boolean; onMove(m: Map<string, EChair>): void }) {
  const svg = useRef<SVGSVGElement>(null)
  const [drag, setDrag] = useState<{ kind: 'move' | 'rect'; x0: number; y0: number; x: number; y: number; hit?: string; shift?: boolean } | null>(null)
  const at = (e: PointerEvent) => {
    const r = svg.current!.getBoundingClientRect()
    return { x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 }
  }
  const offset = useMemo(() => {
    if (!drag || drag.kind !== 'move') return null
    return { dx: drag.x - drag.x0, dy: drag.y - drag.y0 }
  }, [drag])
  const moved = (c: EChair): EChair => {
    if (!offset || !p.selected.has(c.uid)) return c
    return { ...c, percentX: clamp(snap(c.percentX + offset.dx, p.snapOn), 0, 100 - c.percentWidth), percentY: clamp(snap(c.percentY + offset.dy, p.snapOn), 0, 100 - c.percentHeight) }
  }
  const down = (e: PointerEvent) => {
    const q = at(e)
    const uidHit = (e.target as Element).getAttribute('data-uid')
    svg.current!.setPointerCapture(e.pointerId)
    if (uidHit) {
      let next = p.selected
      if (e.shiftKey) {
        next = new Set(p.selected)
        next.has(uidHit) ? next.delete(uidHit) : next.add(uidHit)
      } else if (!p.selected.has(uidHit)) next = new Set([uidHit])
      p.setSelected(next)
      setDrag({ kind: 'move', x0: q.x, y0: q.y, x: q.x, y: q.y, hit: uidHit, shift: e.shiftKey })
    } else setDrag({ kind: 'rect', x0: q.x, y0: q.y, x: q.x, y: q.y })
  }
  const move = (e: PointerEvent) => {
    if (!drag) return
    const q = at(e)
    setDrag({ ...drag, x: q.x, y: q.y })
  }
  const up = (e: PointerEvent) => {
    if (!drag) return
    if (drag.kind === 'move' && offset && (Math.abs(offset.dx) > 0.1 || Math.abs(offset.dy) > 0.1)) {
      const m = new Map<string, EChair>()
      for (const c of p.area.chairs) if (p.selected.has(c.uid)) m.set(c.uid, moved(c))
      p.onMove(m)
    } else if (drag.kind === 'move' && drag.hit && !drag.shift) {
      // a click without moving on a chair of a selection: that chair alone
      p.setSelected(new Set([drag.hit]))
    } else if (drag.kind === 'rect') {
      const [x1, x2] = [Math.min(drag.x0, drag.x), Math.max(drag.x0, drag.x)]
      const [y1, y2] = [Math.min(drag.y0, drag.y), Math.max(drag.y0, drag.y)]
      const hit = p.area.chairs.filter((c) => c.percentX + c.percentWidth / 2 >= x1 && c.percentX + c.percentWidth / 2 <= x2 && c.percentY + c.percentHeight / 2 >= y1 && c.percentY + c.percentHeight / 2 <= y2)
      const next = e.shiftKey ? new Set(p.selected) : new Set<string>()
      for (const c of hit) next.add(c.uid)
      p.setSelected(next)
    }
    setDrag(null)
  }
  const W = p.area.width
  const H = p.area.height
  const sx = W / 100
  const sy = H / 100
  return (
    <svg
      ref={svg}
      class="seating-svg"
      viewBox={`0 0 ${W} ${H}`}
      role="application"
      aria-label={t('seating.canvas', { area: p.area.displayName, n: p.area.chairs.length })}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={() => setDrag(null)}
    >
      <rect x={0} y={0} width={W} height={H} class="seating-bg" />
      {p.area.areaImage && <image href={`/proxy/api/asset/${p.area.areaImage}?dimension=Regular_2000`} x={0} y={0} width={W} height={H} preserveAspectRatio="none" opacity={0.6} pointer-events="none" />}
      {p.snapOn && <rect x={0} y={0} width={W} height={H} fill="url(#seating-grid)" pointer-events="none" />}
      <defs>
        <pattern id="seating-grid" width={sx * 5} height={sy * 5} patternUnits="userSpaceOnUse">
          <path d={`M ${sx * 5} 0 L 0 0 0 ${sy * 5}`} fill="none" stroke="#e2e8f0" stroke-width={1} />
        </pattern>
      </defs>
      {p.area.chairs.map((c0) => {
        const c = moved(c0)
        const x = c.percentX * sx
        const y = c.percentY * sy
        const w = c.percentWidth * sx
        const h = c.percentHeight * sy
        const sel = p.selected.has(c.uid)
        const fill = c.status === 'BLOCKED' ? '#d0d4da' : (p.categoryOf(c.priceCategory)?.color ?? '#94a3b8')
        const common = { 'data-uid': c.uid, fill, stroke: sel ? '#111' : '#fff', 'stroke-width': sel ? 4 : 1.5, class: 'seating-chair' }
        const text = c.status === 'BLOCKED' ? '×' : c.places > 1 ? `${c.label} (${c.places})` : (c.label.split(' ').slice(-1)[0] ?? '')
        const fs = Math.min(h * 0.4, (w * 0.9) / Math.max(2, text.length * 0.6))
        return (
          <g key={c.uid}>
            {c.viewType === 'CIRCLE' ? <ellipse cx={x + w / 2} cy={y + h / 2} rx={w / 2} ry={h / 2} {...common} /> : <rect x={x} y={y} width={w} height={h} rx={4} {...common} />}
            <text x={x + w / 2} y={y + h / 2} font-size={fs} text-anchor="middle" dominant-baseline="central" pointer-events="none" fill={c.status === 'BLOCKED' ? '#374151' : '#fff'}>
              {text}
            </text>
          </g>
        )
      })}
      {drag?.kind === 'rect' && (
        <rect
          x={Math.min(drag.x0, drag.x) * sx}
          y={Math.min(drag.y0, drag.y) * sy}
          width={Math.abs(drag.x - drag.x0) * sx}
          height={Math.abs(drag.y - drag.y0) * sy}
          class="seating-marquee"
        />
      )}
    </svg>
  )
}

function CopyFrom({ event, onCopied }: { event: EventFull; onCopied(): void }) {
  const [events, setEvents] = useState<Array<{ id: number; displayName: string }>>([])
  const [from, setFrom] = useState('')
  useEffect(() => {
    get<Array<{ id: number; displayName: string }>>('/proxy/api/events')
      .then((r) => setEvents(r.filter((e) => e.id !== event.id)))
      .catch(() => setEvents([]))
  }, [event.id])
  if (!events.length) return null
  return (
    <div class="inline-select">
      <label class="inline-select">
        {t('seating.copyFrom')}
        <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
          <option value="">{t('form.choose')}</option>
          {events.map((e) => (
            <option key={e.id} value={e.id}>
              {e.displayName}
            </option>
          ))}
        </select>
      </label>
      <Button
        variant="secondary"
        disabled={!from}
        onClick={async () => {
          try {
            await post(`/proxy/api/events/${event.id}/seatingplan/copy`, { fromEventId: Number(from) })
            toast(t('seating.copied'))
            onCopied()
          } catch (e) {
            toast(errorText(e), 'error', 6000)
          }
        }}
      >
        {t('seating.copyAction')}
      </Button>
    </div>
  )
}

interface OccupancyRow {
  priceCategory: { id: number; displayName: string; color: string } | null
  places: number
  taken: number
  reserved: number
  blocked: number
  free: number
}

function Occupancy({ eventId, reloadKey }: { eventId: number; reloadKey: number }) {
  const [rows, setRows] = useState<OccupancyRow[]>([])
  useEffect(() => {
    get<{ categories: OccupancyRow[] }>(`/proxy/api/events/${eventId}/seatingplan/occupancy`)
      .then((r) => setRows(r.categories.filter((c) => c.places > 0)))
      .catch(() => setRows([]))
  }, [eventId, reloadKey])
  if (!rows.length) return null
  return (
    <Card aria-labelledby="occupancy-title">
      <h3 id="occupancy-title">{t('seating.occupancy')}</h3>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th>{t('seating.category')}</th>
              <th>{t('seating.occ.places')}</th>
              <th>{t('seating.occ.taken')}</th>
              <th>{t('seating.occ.reserved')}</th>
              <th>{t('seating.occ.blocked')}</th>
              <th>{t('seating.occ.free')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>
                  {r.priceCategory && <span class="swatch" style={{ background: r.priceCategory.color }} />} {r.priceCategory?.displayName ?? t('seating.noCategory')}
                </td>
                <td>{r.places}</td>
                <td>{r.taken}</td>
                <td>{r.reserved}</td>
                <td>{r.blocked}</td>
                <td>{r.free}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

/** Assign mode (agency-side.md §4): the organiser gives a guest one chair from the guest dialog. */
/**
 * Assign mode (agency-side.md §2.11, §4) in the guest dialog: the plan drawn like the guest's (one
 * canvas), the organiser taps exactly one chair for the guest; chairs of another price category than
 * the guest's (`seatCategoryId` of the guest detail) are drawn and treated as blocked, as are full ones.
 * The select below offers the same free chairs to the keyboard.
 */
export function AssignSeat({ eventId, guestId, chairs, categoryId, onChanged }: { eventId: number; guestId: number; chairs: Array<{ chairId: number; label: string }>; categoryId?: number | null; onChanged(): void }) {
  const [plan, setPlan] = useState<{ areas: Array<Area & { chairs: Chair[] }>; priceCategories: Array<{ id: number; displayName: string; color: string }> } | null>(null)
  const [areaId, setAreaId] = useState<number | null>(null)
  const [choice, setChoice] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const load = () =>
    get<any>(`/proxy/api/events/${eventId}/seatingplan`)
      .then((r) => {
        setPlan(r)
        setAreaId((id) => id ?? r.areas[0]?.id ?? null)
      })
      .catch(() => setPlan({ areas: [], priceCategories: [] }))
  useEffect(() => void load(), [eventId, guestId])
  const own = useMemo(() => new Set(chairs.map((c) => c.chairId)), [chairs])
  const category = categoryId != null ? plan?.priceCategories.find((c) => c.id === categoryId) : undefined
  // another category or no free place: blocked in assign mode (the guest's own chair stays marked)
  const open = (c: Chair) => !own.has(c.id) && c.status !== 'BLOCKED' && c.freeChairs > 0 && (categoryId == null || c.priceCategory?.id === categoryId)
  const area = plan?.areas.find((a) => a.id === areaId) ?? plan?.areas[0]
  const drawn = useMemo(() => area?.chairs.map((c) => (open(c) || own.has(c.id) ? c : { ...c, status: 'BLOCKED' as const, freeChairs: 0 })) ?? [], [area, own, categoryId])
  const mine = useMemo(() => Object.fromEntries([...own, ...(choice ? [Number(choice)] : [])].map((id) => [id, true])), [own, choice])
  if (!plan || !plan.areas.length) return null
  const free = plan.areas.flatMap((a) => a.chairs.filter(open).map((c) => ({ id: c.id, label: c.label, area: a.displayName, category: c.priceCategory?.displayName ?? null })))
  const chosen = plan.areas.flatMap((a) => a.chairs).find((c) => c.id === Number(choice))
  const pick = (c: Chair) => {
    if (own.has(c.id)) return setNote(t('seating.assign.current', { label: c.label }))
    if (!open(c)) return setNote(categoryId != null && c.priceCategory?.id !== categoryId ? t('seating.assign.otherCategory', { label: c.label, category: category?.displayName ?? '' }) : t('errors.SEAT_NOT_AVAILABLE'))
    setNote(null)
    setChoice(String(c.id))
  }
  return (
    <section class="guest-section-block seating-assign" aria-labelledby="assign-seat-title">
      <h3 id="assign-seat-title">{t('seating.assign.title')}</h3>
      <p>{chairs.length ? chairs.map((c) => c.label).join(', ') : t('seating.assign.none')}</p>
      {category && <p class="muted">{t('seating.assign.onlyCategory', { category: category.displayName })}</p>}
      {plan.areas.length > 1 && (
        <div class="seat-areas" role="group" aria-label={t('registration.seats.area')}>
          {plan.areas.map((a) => (
            <Button key={a.id} variant={a.id === area!.id ? 'primary' : 'secondary'} aria-pressed={a.id === area!.id} onClick={() => setAreaId(a.id)}>
              {a.displayName}
            </Button>
          ))}
        </div>
      )}
      <PlanCanvas area={area!} chairs={drawn} mine={mine} touchGestures onPick={pick} />
      <p class="seating-assign-choice" role="status">
        {note ?? (chosen ? t('seating.assign.chosen', { label: chosen.label }) : t('seating.assign.tap'))}
      </p>
      <div class="button-row">
        <label class="seating-assign-select">
          {t('seating.assign.choose')}
          <select value={choice} onChange={(e) => (setNote(null), setChoice((e.target as HTMLSelectElement).value))}>
            <option value="">{t('form.choose')}</option>
            {free.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label} · {c.area}
                {c.category ? ` · ${c.category}` : ''}
              </option>
            ))}
          </select>
        </label>
        <Button
          variant="secondary"
          busy={busy}
          disabled={!choice}
          onClick={async () => {
            setBusy(true)
            try {
              const r = await put<{ label: string }>(`/proxy/api/events/${eventId}/visitors/${guestId}/chair`, { chairId: Number(choice) })
              toast(t('seating.assign.done', { label: r.label }))
              setChoice('')
              await load()
              onChanged()
            } catch (e) {
              toast(errorText(e), 'error', 6000)
            } finally {
              setBusy(false)
            }
          }}
        >
          {t('seating.assign.action')}
        </Button>
      </div>
    </section>
  )
}
