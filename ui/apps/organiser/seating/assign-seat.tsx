import { useEffect, useMemo, useState } from 'preact/hooks'
import { errorText, get, put } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Button } from '../../../components/ui'
import { t } from '../../../i18n'
import { PlanCanvas } from '../../../components/seat-picker/canvas'
import type { Area, Chair } from '../../../components/seat-picker/model'

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
