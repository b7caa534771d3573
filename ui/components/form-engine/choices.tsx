// SMARTLIST (defined values with quotas and amounts, grouped, tabs for 3 or fewer groups) and
// TIMESLOT (reserved while picked: pending spinner, selected, cannot select).
import { useState } from 'preact/hooks'
import { type DefinedValue, type FieldDef, type Selection, type SlotSelection, type Timeslot, groupsAsTabs, labelOf } from '../../../server/modules/forms/definitions'
import { amountBound } from '../../../server/modules/forms/values'
import { t } from '../../i18n'
import { type FieldChrome, Group } from './fields'
import type { SlotState } from './reservations'

function Tabs<T extends { group?: string | null; groupId?: string | null }>({ f, items, render, idBase }: { f: FieldDef; items: T[]; render(list: T[]): preact.ComponentChildren; idBase: string }) {
  const groups = f.hasDefinedGroups ? f.definedGroups : []
  const [active, setActive] = useState(groups[0]?.id ?? '')
  const groupOf = (x: T) => x.group ?? x.groupId ?? null
  if (!groups.length) return <>{render(items)}</>
  if (!groupsAsTabs(f)) {
    return (
      <>
        {groups.map((g) => (
          <div key={g.id} class="choice-group">
            <h4>{g.displayName}</h4>
            {render(items.filter((x) => groupOf(x) === g.id))}
          </div>
        ))}
        {items.some((x) => !groups.some((g) => g.id === groupOf(x))) && render(items.filter((x) => !groups.some((g) => g.id === groupOf(x))))}
      </>
    )
  }
  const onKey = (e: KeyboardEvent, i: number) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!d) return
    e.preventDefault()
    const next = groups[(i + d + groups.length) % groups.length]
    setActive(next.id)
    document.getElementById(`${idBase}-tab-${next.id}`)?.focus()
  }
  return (
    <>
      <div class="form-tabs" role="tablist">
        {groups.map((g, i) => (
          <button
            key={g.id}
            id={`${idBase}-tab-${g.id}`}
            type="button"
            role="tab"
            class={`form-tab ${active === g.id ? 'active' : ''}`}
            aria-selected={active === g.id}
            aria-controls={`${idBase}-panel`}
            tabIndex={active === g.id ? 0 : -1}
            onClick={() => setActive(g.id)}
            onKeyDown={(e) => onKey(e as unknown as KeyboardEvent, i)}
          >
            {g.displayName}
          </button>
        ))}
      </div>
      <div id={`${idBase}-panel`} role="tabpanel" aria-labelledby={`${idBase}-tab-${active}`}>
        {render(items.filter((x) => groupOf(x) === active))}
      </div>
    </>
  )
}

const freeText = (free: number) => (free < 0 ? t('form.unlimited') : free === 0 ? t('form.soldOut') : t('form.free', { n: free }))

function LimitLine({ f, chosen }: { f: FieldDef; chosen: number }) {
  if (f.maxPerGuest < 0) return null
  return (
    <p class="choice-limit" aria-live="polite">
      {t('form.chosen', { chosen, limit: f.maxPerGuest })}
    </p>
  )
}

export function SmartList({ c, f, value, onChange, onBlur, language }: { c: FieldChrome; f: FieldDef; value: unknown; onChange(v: Selection[]): void; onBlur(): void; language: string }) {
  const sel = (Array.isArray(value) ? value : []) as Selection[]
  const chosen = sel.reduce((a, s) => a + (s.amount || 0), 0)
  const limitReached = f.maxPerGuest >= 0 && chosen >= f.maxPerGuest
  const visible = f.definedValues.filter((v) => !(f.hideUnavailable && v.freeValue === 0) || sel.some((s) => s.fieldValueId === v.id))
  const set = (v: DefinedValue, amount: number) => {
    const others = f.multiple ? sel.filter((s) => s.fieldValueId !== v.id) : []
    onChange(amount > 0 ? [...others, { fieldValueId: v.id, amount }] : others)
  }
  const render = (list: DefinedValue[]) => (
    <ul class="choice-cards">
      {list.map((v) => {
        const mine = sel.find((s) => s.fieldValueId === v.id)
        const out = v.freeValue === 0
        const blocked = out || (!mine && limitReached && f.multiple)
        const id = `${c.id}-v${v.id}`
        const bound = amountBound(f.maxPerGuest, v.maxPerGuest, v.freeValue)
        return (
          <li key={v.id} class={`choice-card ${mine ? 'selected' : ''} ${blocked ? 'disabled' : ''}`}>
            <label for={id} class="choice-main">
              <input
                id={id}
                type={f.multiple ? 'checkbox' : 'radio'}
                name={c.id}
                checked={!!mine}
                disabled={blocked && !mine}
                onChange={(e) => set(v, (e.currentTarget as HTMLInputElement).checked ? Math.max(1, v.minPerGuest) : 0)}
                onBlur={onBlur}
              />
              <span class="choice-text">
                <strong>{labelOf(v, language)}</strong>
                {v.description && <small class="muted">{v.description}</small>}
                <span class={`choice-free ${out ? 'out' : ''}`}>{freeText(v.freeValue)}</span>
              </span>
            </label>
            {f.amountSelection && mine && (
              <label class="choice-amount">
                <span class="sr-only">{t('form.amount', { name: labelOf(v, language) })}</span>
                <input type="number" min={Math.max(1, v.minPerGuest)} max={bound} value={mine.amount} onInput={(e) => set(v, Number((e.currentTarget as HTMLInputElement).value) || 0)} onBlur={onBlur} />
              </label>
            )}
          </li>
        )
      })}
    </ul>
  )
  return (
    <Group c={c} class="choices">
      <LimitLine f={f} chosen={chosen} />
      <Tabs f={f} items={visible} render={render} idBase={c.id} />
    </Group>
  )
}

export function TimeslotPicker({
  c,
  f,
  value,
  onPick,
  slots,
  free,
  language,
}: {
  c: FieldChrome
  f: FieldDef
  value: unknown
  onPick(slot: Timeslot): void
  slots: Record<number, SlotState>
  free: Record<number, number>
  language: string
}) {
  const sel = (Array.isArray(value) ? value : []) as SlotSelection[]
  const chosen = sel.reduce((a, s) => a + (s.amount || 0), 0)
  const limitReached = f.maxPerGuest >= 0 && chosen >= f.maxPerGuest
  const freeOf = (s: Timeslot) => free[s.id] ?? s.freeSlots
  const visible = f.timeslots.filter((s) => !(f.hideUnavailable && freeOf(s) === 0) || sel.some((x) => x.timeslotId === s.id))
  const render = (list: Timeslot[]) => (
    <ul class="choice-cards slots">
      {list.map((s) => {
        const mine = sel.some((x) => x.timeslotId === s.id)
        const state = slots[s.id]?.status
        const full = freeOf(s) === 0 && !mine
        const blocked = !mine && (full || (f.multiple && limitReached))
        return (
          <li key={s.id} class={`choice-card slot ${mine ? 'selected' : ''} ${blocked ? 'disabled' : ''}`}>
            <button type="button" class="slot-btn" aria-pressed={mine} disabled={blocked || state === 'pending'} aria-busy={state === 'pending' ? 'true' : undefined} onClick={() => onPick(s)} onBlur={undefined}>
              <span class="slot-mark" aria-hidden="true">
                {state === 'pending' ? <span class="spinner spinner-dark" /> : mine ? '✓' : ''}
              </span>
              <span class="choice-text">
                <strong>{labelOf({ displayName: s.displayName }, language)}</strong>
                {(s.dateInfo || s.dateTimezoneInfo) && <small class="muted">{[s.dateInfo, s.dateTimezoneInfo].filter(Boolean).join(' · ')}</small>}
                <span class={`choice-free ${mine ? 'mine' : freeOf(s) === 0 ? 'out' : ''}`}>{state === 'pending' ? t('form.reserving') : mine && state === 'selected' ? t('form.reserved') : freeText(freeOf(s))}</span>
              </span>
            </button>
          </li>
        )
      })}
    </ul>
  )
  return (
    <Group c={c} class="choices">
      <LimitLine f={f} chosen={chosen} />
      <Tabs f={f} items={visible} render={render} idBase={c.id} />
    </Group>
  )
}
