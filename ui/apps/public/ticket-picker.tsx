// The ticket chooser of a paid event's public page (docs/ticketing.md): a quantity per category
// within its minimum and maximum per order, what is left and the event's maximum per registration;
// an optional coupon code. Loaded with the categories (./tickets.tsx `useTicketCategories`).
import { useEffect, useState } from 'preact/hooks'
import { formatPrice } from '../../../server/i18n/price'
import { ApiError, post } from '../../api/client'
import { fieldMessage, t } from '../../i18n'
import type { TicketPickerProps } from './tickets'

/** What the price preview answers: the total with the coupon (the server prices it as the order will be). */
interface Priced {
  key: string
  grossPriceText: string
  discount: number
}

export function TicketPicker(p: TicketPickerProps) {
  const amountOf = (id: number) => (p.seats?.bound.has(id) ? (p.seats.amounts[id] ?? 0) : (p.value.amounts[id] ?? 0))
  const total = p.data.items.reduce((s, c) => s + amountOf(c.id), 0)
  const sum = p.data.items.reduce((s, c) => s + amountOf(c.id) * c.grossPrice, 0)
  const price = (cents: number) => formatPrice(cents, p.data.currency, p.data.currencyPrefix)
  // a typed coupon: the total the order will have (issue 20 item 23), asked 500 ms after the last change
  const code = p.value.couponCode.trim()
  const tickets = p.data.items.map((c) => ({ categoryId: c.id, amount: amountOf(c.id) })).filter((x) => x.amount > 0)
  const key = JSON.stringify([code, tickets])
  const [priced, setPriced] = useState<Priced | null>(null)
  const [couponError, setCouponError] = useState<string | null>(null)
  useEffect(() => {
    setCouponError(null)
    if (!code || !tickets.length) return setPriced(null)
    const timer = setTimeout(() => {
      post<Omit<Priced, 'key'>>(`/proxy/api/public/events/${p.data.eventId}/ticketPrice`, { tickets, couponCode: code }).then(
        (r) => setPriced({ ...r, key }),
        (e) => {
          setPriced(null)
          setCouponError((e instanceof ApiError && e.errorFields.find((f) => f.field === 'couponCode')?.errorType) || null)
        },
      )
    }, 500)
    return () => clearTimeout(timer)
  }, [key])
  const shown = priced?.key === key && priced.discount > 0 ? priced : null
  const couponMessage = p.errors.couponCode ?? couponError
  const eventMax = p.data.maxPerOrder > 0 ? p.data.maxPerOrder : Infinity
  const set = (id: number, n: number) => p.onChange({ ...p.value, amounts: { ...p.value.amounts, [id]: n } })
  return (
    <fieldset class="ticket-picker field-full">
      <legend>{t('registration.tickets.title')}</legend>
      {p.errors.tickets && <p class="field-error">{fieldMessage(p.errors.tickets)}</p>}
      <ul>
        {p.data.items.map((c, i) => {
          const n = amountOf(c.id)
          const bySeat = !!p.seats?.bound.has(c.id)
          const cap = Math.min(c.maxPerOrder, c.available ?? Infinity, eventMax - total + n)
          const soldOut = c.available === 0
          // a minimum per order: the first step from 0 jumps to it, the step down from it to 0
          const up = n === 0 ? Math.max(1, c.minPerOrder) : n + 1
          const down = n <= c.minPerOrder ? 0 : n - 1
          const err = p.errors[`tickets.${i}.amount`]
          return (
            <li key={c.id} class="ticket-row">
              <div class="ticket-name">
                <strong>{c.displayName}</strong>
                <span>{c.grossPriceText}</span>
                {soldOut ? (
                  <span class="ticket-left is-out">{t('registration.tickets.soldOut')}</span>
                ) : !c.onSale ? (
                  <span class="ticket-left is-out">{t('registration.tickets.notOnSale')}</span>
                ) : (
                  c.available != null && c.available <= 20 && <span class="ticket-left">{t('registration.tickets.left', { n: c.available })}</span>
                )}
                {bySeat && <span class="ticket-left">{t('registration.tickets.bySeat')}</span>}
                {err && <span class="field-error">{fieldMessage(err)}</span>}
              </div>
              {bySeat ? (
                <div class="ticket-qty">
                  <output aria-live="polite" aria-label={c.displayName}>
                    {n}
                  </output>
                </div>
              ) : (
              <div class="ticket-qty" role="group" aria-label={c.displayName}>
                <button type="button" aria-label={t('registration.tickets.less', { name: c.displayName })} disabled={n === 0} onClick={() => set(c.id, down)}>
                  −
                </button>
                <output aria-live="polite">{n}</output>
                <button type="button" aria-label={t('registration.tickets.more', { name: c.displayName })} disabled={soldOut || !c.onSale || up > cap} onClick={() => set(c.id, up)}>
                  +
                </button>
              </div>
              )}
            </li>
          )
        })}
      </ul>
      <label class="ticket-coupon">
        <span>{t('registration.tickets.coupon')}</span>
        <input value={p.value.couponCode} maxLength={40} autoComplete="off" onInput={(e) => p.onChange({ ...p.value, couponCode: (e.target as HTMLInputElement).value })} aria-invalid={!!couponMessage} />
        {couponMessage && <span class="field-error">{fieldMessage(couponMessage)}</span>}
      </label>
      <p class="ticket-total" aria-live="polite">
        {t('registration.tickets.total', { n: total })} {shown && <s>{price(sum)}</s>} <strong>{shown ? shown.grossPriceText : price(sum)}</strong>
      </p>
    </fieldset>
  )
}

