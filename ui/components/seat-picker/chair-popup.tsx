// The chair details popup (agency-side.md §2.11): category, price, options, free places, and the
// quantity chooser for blocks; reserve or give back.
import { useEffect, useRef, useState } from 'preact/hooks'
import { t } from '../../i18n'
import { Button } from '../ui'
import type { Chair } from './model'

export function ChairPopup(p: { chair: Chair; hold?: { amount: number }; room: number; price?: string; waiting?: boolean; onReserve(c: Chair, n: number): Promise<void>; onRelease(c: Chair): Promise<void>; onClose(): void }) {
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
