// The ticket chooser of a paid event's public page (docs/ticketing.md): a quantity per category
// within its minimum and maximum per order, what is left and the event's maximum per registration;
// an optional coupon code. Loaded with the categories (./tickets.tsx `useTicketCategories`).
import { useEffect, useState } from 'preact/hooks'
import { formatDateTimeIn } from '../../../server/i18n/locale-format'
import { formatPriceIn } from '../../../server/i18n/price'
import { ApiError, get, post } from '../../api/client'
import { currentLanguage, fieldMessage, t } from '../../i18n'
import '../../i18n/part-shop'
import type { TicketCategory, TicketPickerProps } from './tickets'

/** What the price preview answers: the total with the coupon (the server prices it as the order will be). */
interface Priced {
  key: string
  grossPriceText: string
  discount: number
}

/**
 * The code field for hidden categories (docs/ticketing.md, "Selling rules"): behind a link, or filled
 * from the page's `?code=`; a right code shows the categories it opens (the server checks it again
 * with the order).
 */
function useHiddenCategories(p: TicketPickerProps) {
  const fromLink = new URLSearchParams(location.search).get('code') ?? ''
  const [open, setOpen] = useState(!!fromLink)
  const [typed, setTyped] = useState(fromLink)
  const [items, setItems] = useState<TicketCategory[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const apply = async (code: string) => {
    setError(null)
    try {
      const r = await get<{ items: TicketCategory[] }>(`/proxy/api/public/events/${p.data.eventId}/ticketCategories?language=${currentLanguage()}&code=${encodeURIComponent(code.trim())}`)
      setItems(r.items)
      p.onChange({ ...p.value, ticketCode: code.trim().toUpperCase() })
    } catch (e) {
      setError((e instanceof ApiError && (e.errorFields.find((f) => f.field === 'code')?.errorType ?? e.errorType)) || 'INVALID')
    }
  }
  useEffect(() => {
    if (fromLink && p.data.hasHidden) void apply(fromLink)
  }, [])
  return { open, setOpen, typed, setTyped, items, error, apply }
}

export function TicketPicker(p: TicketPickerProps) {
  const hidden = useHiddenCategories(p)
  const items = hidden.items ?? p.data.items
  // the registration's tickets in the order index.tsx sends them (object keys: ascending ids): field errors name that index
  const sent = Object.entries(p.value.amounts)
    .filter(([id, n]) => n > 0 && !p.seats?.bound.has(Number(id)))
    .map(([id]) => Number(id))
  // the server's row errors name the index of the tickets as sent: once the choice changes they are stale
  const amountsKey = JSON.stringify(sent.map((id) => [id, p.value.amounts[id]]))
  const [errorsKey, setErrorsKey] = useState(amountsKey)
  useEffect(() => setErrorsKey(amountsKey), [p.errors])
  const rowErrors = errorsKey === amountsKey ? p.errors : {}
  const amountOf = (id: number) => (p.seats?.bound.has(id) ? (p.seats.amounts[id] ?? 0) : (p.value.amounts[id] ?? 0))
  const total = items.reduce((s, c) => s + amountOf(c.id), 0)
  const sum = items.reduce((s, c) => s + amountOf(c.id) * c.grossPrice, 0)
  const price = (cents: number) => formatPriceIn(currentLanguage(), cents, p.data.currency, p.data.currencyPrefix)
  // a typed coupon: the total the order will have (issue 20 item 23), asked 500 ms after the last change
  const code = p.value.couponCode.trim()
  const tickets = items.map((c) => ({ categoryId: c.id, amount: amountOf(c.id) })).filter((x) => x.amount > 0)
  const key = JSON.stringify([code, tickets])
  const [priced, setPriced] = useState<Priced | null>(null)
  const [couponError, setCouponError] = useState<string | null>(null)
  useEffect(() => {
    setCouponError(null)
    if (!code || !tickets.length) return setPriced(null)
    const timer = setTimeout(() => {
      post<Omit<Priced, 'key'>>(`/proxy/api/public/events/${p.data.eventId}/ticketPrice`, { tickets, couponCode: code, ticketCode: p.value.ticketCode }).then(
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
        {items.map((c) => {
          const n = amountOf(c.id)
          const bySeat = !!p.seats?.bound.has(c.id)
          const cap = Math.min(c.maxPerOrder, c.available ?? Infinity, eventMax - total + n)
          const soldOut = c.available === 0
          // a minimum per order: the first step from 0 jumps to it, the step down from it to 0
          const up = n === 0 ? Math.max(1, c.minPerOrder) : n + 1
          const down = n <= c.minPerOrder ? 0 : n - 1
          const i = sent.indexOf(c.id)
          const err = i < 0 ? undefined : (rowErrors[`tickets.${i}.amount`] ?? rowErrors[`tickets.${i}.categoryId`])
          const needs = c.requiresCategoryId != null && n > 0 && !(amountOf(c.requiresCategoryId) > 0)
          return (
            <li key={c.id} class="ticket-row">
              <div class="ticket-name">
                <strong>{c.displayName}</strong>
                <span>{c.grossPriceText}</span>
                {soldOut ? (
                  <span class="ticket-left is-out">{t('registration.tickets.soldOut')}</span>
                ) : c.saleState === 'NOT_YET' && c.saleFrom ? (
                  <span class="ticket-left is-out">{t('registration.tickets.saleFrom', { date: formatDateTimeIn(currentLanguage(), c.saleFrom, p.data.timezone ?? 'Europe/Berlin') })}</span>
                ) : c.saleState === 'ENDED' ? (
                  <span class="ticket-left is-out">{t('registration.tickets.saleEnded')}</span>
                ) : !c.onSale ? (
                  <span class="ticket-left is-out">{t('registration.tickets.notOnSale')}</span>
                ) : (
                  c.available != null && c.available <= 20 && <span class="ticket-left">{t('registration.tickets.left', { n: c.available })}</span>
                )}
                {bySeat && <span class="ticket-left">{t('registration.tickets.bySeat')}</span>}
                {c.hidden && <span class="ticket-left">{t('registration.tickets.codeOpened')}</span>}
                {c.description && <small class="ticket-description">{c.description}</small>}
                {c.requiresName && <small class={needs && !err ? 'field-error' : 'ticket-requires'}>{t('registration.tickets.requires', { name: c.requiresName })}</small>}
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
      {p.data.hasHidden &&
        (hidden.open ? (
          <div class="ticket-coupon ticket-code">
            <label>
              <span>{t('registration.tickets.code')}</span>
              <input value={hidden.typed} maxLength={40} autoComplete="off" onInput={(e) => hidden.setTyped((e.target as HTMLInputElement).value)} aria-invalid={!!hidden.error} />
            </label>
            <button type="button" class="btn btn-secondary" disabled={!hidden.typed.trim()} onClick={() => void hidden.apply(hidden.typed)}>
              {t('registration.tickets.codeApply')}
            </button>
            {hidden.error && <span class="field-error">{fieldMessage(hidden.error)}</span>}
          </div>
        ) : (
          <button type="button" class="ticket-code-link" onClick={() => hidden.setOpen(true)}>
            {t('registration.tickets.codeLink')}
          </button>
        ))}
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

