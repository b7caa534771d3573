// The organiser's seat-plan editor (manage mode, agency-side.md §2.11, docs/seating.md): areas, price
// categories with colours, tools for a row of N chairs, a block of rows × columns, a table with N
// places, numbering (row letters; seats left to right or from the middle), select with a rectangle,
// move with snapping, delete, copy/paste, undo/redo, options and block/unblock. Save sends the whole
// plan (PUT …/seatingplan); the editor keeps its own history. Copy from another event and the
// occupancy per price category sit beside it. An SVG in area percent: the organiser's plan is edited,
// not sold, so one node per chair is fine here.
import { useEffect, useRef, useState } from 'preact/hooks'
import { errorText, get, put, uploadPublicAsset } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import type { EventFull } from '../event-model'
import { type EChair, type EArea, type EPlan, uid, clamp, alignChairs, fromServer, toServer, unlinkedCategories } from './model'
import { Categories, CategoryOptions, type TicketChoice, Tools } from './tools'
import { money } from '../tickets/money'
import { PlanSvg } from './plan-svg'
import { CopyFrom, Occupancy } from './copy-occupancy'

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
  // the event's ticket categories a price category may be linked to (none: a free event)
  const ticketRes = useResource<{ currency: string; items: Array<{ id: number; displayName: string; grossPrice: number }> }>(`/proxy/api/events/${event.id}/ticketCategories`)
  const tickets: TicketChoice[] | null = ticketRes.data ? ticketRes.data.items.map((c) => ({ id: c.id, label: `${c.displayName} (${money(c.grossPrice, ticketRes.data!.currency)})` })) : null

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
  const unlinked = tickets && tickets.length ? unlinkedCategories(plan) : []
  return (
    <div class="seating-editor">
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
      {unlinked.length > 0 && (
        <Alert tone="warn">
          {t('seating.unlinked', { names: unlinked.map((c) => c.displayName).join(', ') })}
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
          <Categories plan={plan} change={change} tickets={tickets} />
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
                        const a = await uploadPublicAsset(file, 'EVENT')
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
                  <CategoryOptions plan={plan} />
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
