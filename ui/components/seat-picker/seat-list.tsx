// The list of free seats by row: the keyboard and screen-reader way to the chairs of the canvas.
import { useMemo, useState } from 'preact/hooks'
import { t } from '../../i18n'
import { type Chair, groupOf } from './model'

export function SeatList(p: { chairs: Chair[]; mine(c: Chair): boolean; open: boolean; onPick(c: Chair): void }) {
  const [shown, setShown] = useState(p.open)
  const rows = useMemo(() => {
    if (!shown) return []
    const m = new Map<string, Chair[]>()
    for (const c of p.chairs) {
      if (!(p.mine(c) || (c.freeChairs > 0 && c.status !== 'BLOCKED'))) continue
      const r = groupOf(c)
      m.set(r, [...(m.get(r) ?? []), c])
    }
    return [...m.entries()]
  }, [shown, p.chairs, p.mine])
  return (
    <details class="seat-list" open={p.open} onToggle={(e) => setShown((e.target as HTMLDetailsElement).open)}>
      <summary>{t('registration.seats.list')}</summary>
      {rows.map(([row, list]) => (
        <div key={row} class="seat-row" role="group" aria-label={row ? t('registration.seats.row', { row }) : t('registration.seats.tables')}>
          <span class="seat-row-name">{row ? t('registration.seats.row', { row }) : t('registration.seats.tables')}</span>
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
