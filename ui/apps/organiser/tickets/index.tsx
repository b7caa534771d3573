// The event's Tickets tab (docs/ticketing.md, "Organiser side"): ticket categories, coupons, the
// payment methods enabled for the event, revenue per category, and the orders with filters,
// search, paging, mark as paid and cancel.
import { useEffect, useState } from 'preact/hooks'
import { formatDateTime, formatMoney } from '../../../../server/i18n/format'
import { errorText, post, put, del } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Badge, Button, Card, EmptyState, Spinner } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'
import { usePermission } from '../common'
import type { EventFull } from '../event-page'

interface Category {
  id: number
  displayName: string
  grossPrice: number
  taxCode: string
  quota: number | null
  sold: number
  available: number | null
  minPerOrder: number
  maxPerOrder: number
  sortOrder: number
}
interface Coupon {
  id: number
  code: string
  valueType: 'PERCENT' | 'FIXED'
  reduction: number
  categoryId: number | null
  maxUses: number | null
  used: number
}
interface Method {
  id: number
  method: string
  currency: string
  iban: string | null
}
const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

interface OrderRow {
  id: number
  number: string
  status: string
  email: string | null
  fullName: string | null
  grossPrice: number
  currency: string
  paymentMethod: string | null
  paidAt: string | null
  overdue: boolean
  createdAt: string
}

const money = (c: number, cur: string) => `${formatMoney(c)} ${cur === 'CHF' ? 'CHF' : '€'}`
/** "12,50" or "12.50" → 1250 cents; null when not a price */
export function parseCents(s: string): number | null {
  const m = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(s)
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null
}

function useErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const fail = (e: unknown) => {
    const fields = (e as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
    if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.errorType])))
    else toast(errorText(e), 'error')
  }
  return { errors, setErrors, fail }
}

function Err({ code }: { code?: string }) {
  return code ? <small class="field-error">{fieldMessage(code)}</small> : null
}

export function TicketsTab({ event }: { event: EventFull }) {
  const canEdit = usePermission('EVENT.EDIT')
  const canGuests = usePermission('EVENT.GUEST.VIEW')
  const cats = useResource<{ currency: string; taxCodes: string[]; items: Category[] }>(`/proxy/api/events/${event.id}/ticketCategories`)
  return (
    <div class="tickets-tab">
      <Categories event={event} res={cats} canEdit={canEdit} />
      {cats.data && cats.data.items.length > 0 && (
        <>
          <Coupons event={event} categories={cats.data.items} canEdit={canEdit} />
          <PaymentMethods event={event} canEdit={canEdit} />
          {canGuests && <Orders event={event} />}
        </>
      )}
    </div>
  )
}

function Categories({ event, res, canEdit }: { event: EventFull; res: ReturnType<typeof useResource<{ currency: string; taxCodes: string[]; items: Category[] }>>; canEdit: boolean }) {
  const [form, setForm] = useState({ displayName: '', price: '', taxCode: event.currency === 'CHF' ? 'TAX_CH_NORMAL' : 'TAX_19', quota: '', maxPerOrder: '10' })
  const { errors, setErrors, fail } = useErrors()
  const [busy, setBusy] = useState(false)
  if (!res.data) return <Spinner />
  const add = async (e: Event) => {
    e.preventDefault()
    const grossPrice = parseCents(form.price)
    if (grossPrice == null) return setErrors({ grossPrice: 'INVALID' })
    setBusy(true)
    try {
      await post(`/proxy/api/events/${event.id}/ticketCategories`, {
        displayName: form.displayName,
        grossPrice,
        taxCode: form.taxCode,
        quota: form.quota.trim() ? Number(form.quota) : null,
        maxPerOrder: Number(form.maxPerOrder) || 10,
        sortOrder: res.data!.items.length,
      })
      setErrors({})
      setForm({ ...form, displayName: '', price: '', quota: '' })
      toast(t('ticketing.admin.categorySaved'))
      await res.reload()
    } catch (err) {
      fail(err)
    } finally {
      setBusy(false)
    }
  }
  const remove = async (c: Category) => {
    try {
      await del(`/proxy/api/events/${event.id}/ticketCategories/${c.id}`)
      await res.reload()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.categories')}</h2>
      {res.data.items.length === 0 ? (
        <EmptyState>{t('ticketing.admin.noCategories')}</EmptyState>
      ) : (
        <div class="table-wrap">
          <table class="tickets-table">
            <thead>
              <tr>
                <th>{t('ticketing.admin.name')}</th>
                <th class="num">{t('ticketing.admin.price')}</th>
                <th>{t('ticketing.admin.tax')}</th>
                <th class="num">{t('ticketing.admin.sold')}</th>
                {canEdit && <th />}
              </tr>
            </thead>
            <tbody>
              {res.data.items.map((c) => (
                <tr key={c.id}>
                  <td>{c.displayName}</td>
                  <td class="num">{money(c.grossPrice, res.data!.currency)}</td>
                  <td>{t(`ticketing.tax.${c.taxCode}`)}</td>
                  <td class="num">{c.quota == null ? c.sold : `${c.sold} / ${c.quota}`}</td>
                  {canEdit && (
                    <td>
                      {c.sold === 0 && (
                        <Button variant="ghost" onClick={() => void remove(c)}>
                          {t('ticketing.admin.delete')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canEdit && (
        <form class="tickets-form" onSubmit={add} noValidate>
          <label>
            {t('ticketing.admin.name')}
            <input value={form.displayName} onInput={(e) => setForm({ ...form, displayName: (e.target as HTMLInputElement).value })} />
            <Err code={errors.displayName} />
          </label>
          <label>
            {t('ticketing.admin.priceGross')}
            <input inputMode="decimal" value={form.price} placeholder="25,00" onInput={(e) => setForm({ ...form, price: (e.target as HTMLInputElement).value })} />
            <Err code={errors.grossPrice} />
          </label>
          <label>
            {t('ticketing.admin.tax')}
            <select value={form.taxCode} onChange={(e) => setForm({ ...form, taxCode: (e.target as HTMLSelectElement).value })}>
              {res.data.taxCodes.map((c) => (
                <option key={c} value={c}>
                  {t(`ticketing.tax.${c}`)}
                </option>
              ))}
            </select>
            <Err code={errors.taxCode} />
          </label>
          <label>
            {t('ticketing.admin.quota')}
            <input inputMode="numeric" value={form.quota} placeholder={t('ticketing.admin.unlimited')} onInput={(e) => setForm({ ...form, quota: (e.target as HTMLInputElement).value })} />
            <Err code={errors.quota} />
          </label>
          <label>
            {t('ticketing.admin.maxPerOrder')}
            <input inputMode="numeric" value={form.maxPerOrder} onInput={(e) => setForm({ ...form, maxPerOrder: (e.target as HTMLInputElement).value })} />
            <Err code={errors.maxPerOrder} />
          </label>
          <div class="tickets-form-actions">
            <Button type="submit" busy={busy}>
              {t('ticketing.admin.addCategory')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  )
}

function Coupons({ event, categories, canEdit }: { event: EventFull; categories: Category[]; canEdit: boolean }) {
  const res = useResource<Coupon[]>(`/proxy/api/events/${event.id}/coupons`)
  const [form, setForm] = useState({ code: '', valueType: 'PERCENT', reduction: '', categoryId: '', maxUses: '' })
  const { errors, setErrors, fail } = useErrors()
  const add = async (e: Event) => {
    e.preventDefault()
    const reduction = form.valueType === 'PERCENT' ? Number(form.reduction) : parseCents(form.reduction)
    if (!reduction) return setErrors({ reduction: 'INVALID' })
    try {
      await post(`/proxy/api/events/${event.id}/coupons`, { code: form.code, valueType: form.valueType, reduction, categoryId: form.categoryId ? Number(form.categoryId) : null, maxUses: form.maxUses ? Number(form.maxUses) : null })
      setErrors({})
      setForm({ ...form, code: '', reduction: '', maxUses: '' })
      await res.reload()
    } catch (err) {
      fail(err)
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.coupons')}</h2>
      {res.data && res.data.length > 0 && (
        <ul class="tickets-list">
          {res.data.map((c) => (
            <li key={c.id}>
              <strong>{c.code}</strong> · {c.valueType === 'PERCENT' ? `${c.reduction} %` : money(c.reduction, event.currency)}
              {c.categoryId && ` · ${categories.find((x) => x.id === c.categoryId)?.displayName ?? ''}`} · {t('ticketing.admin.used', { n: c.used, max: c.maxUses ?? '∞' })}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form class="tickets-form" onSubmit={add} noValidate>
          <label>
            {t('ticketing.admin.code')}
            <input value={form.code} onInput={(e) => setForm({ ...form, code: (e.target as HTMLInputElement).value })} />
            <Err code={errors.code} />
          </label>
          <label>
            {t('ticketing.admin.valueType')}
            <select value={form.valueType} onChange={(e) => setForm({ ...form, valueType: (e.target as HTMLSelectElement).value })}>
              <option value="PERCENT">{t('ticketing.admin.percent')}</option>
              <option value="FIXED">{t('ticketing.admin.fixed')}</option>
            </select>
          </label>
          <label>
            {t('ticketing.admin.reduction')}
            <input inputMode="decimal" value={form.reduction} onInput={(e) => setForm({ ...form, reduction: (e.target as HTMLInputElement).value })} />
            <Err code={errors.reduction} />
          </label>
          <label>
            {t('ticketing.admin.appliesTo')}
            <select value={form.categoryId} onChange={(e) => setForm({ ...form, categoryId: (e.target as HTMLSelectElement).value })}>
              <option value="">{t('ticketing.admin.wholeOrder')}</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.displayName}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('ticketing.admin.maxUses')}
            <input inputMode="numeric" value={form.maxUses} placeholder={t('ticketing.admin.unlimited')} onInput={(e) => setForm({ ...form, maxUses: (e.target as HTMLInputElement).value })} />
          </label>
          <div class="tickets-form-actions">
            <Button type="submit">{t('ticketing.admin.addCoupon')}</Button>
          </div>
        </form>
      )}
    </Card>
  )
}

function PaymentMethods({ event, canEdit }: { event: EventFull; canEdit: boolean }) {
  const agency = useResource<Method[]>(usePermission('AGENCY.MANAGE') ? '/proxy/api/agency/paymentMethods' : null)
  const enabled = useResource<Method[]>(`/proxy/api/events/${event.id}/paymentMethods`)
  if (!enabled.data) return <Spinner />
  const on = new Set(enabled.data.map((m) => m.id))
  const all = (agency.data ?? enabled.data).filter((m) => m.currency === event.currency)
  const toggle = async (id: number) => {
    const ids = on.has(id) ? [...on].filter((x) => x !== id) : [...on, id]
    try {
      await put(`/proxy/api/events/${event.id}/paymentMethods`, { ids })
      await enabled.reload()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.methods')}</h2>
      {all.length === 0 && <EmptyState>{t('ticketing.admin.noMethods')}</EmptyState>}
      <div class="tickets-methods">
        {all.map((m) => (
          <label key={m.id}>
            <input type="checkbox" checked={on.has(m.id)} disabled={!canEdit} onChange={() => void toggle(m.id)} /> {t(`ticketing.method.${m.method}`)}
            {m.iban && <span class="muted"> · {m.iban}</span>}
          </label>
        ))}
      </div>
    </Card>
  )
}

function Orders({ event }: { event: EventFull }) {
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const [filter, setFilter] = useState({ status: '', payment: '', search: '', page: 0 })
  const [data, setData] = useState<{ items: OrderRow[]; total: number; page: number; perPage: number } | null>(null)
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    let live = true
    const body = { status: filter.status || null, payment: filter.payment || null, search: filter.search || null, page: filter.page, perPage: 25 }
    void post<typeof data>(`/proxy/api/events/${event.id}/orders/search`, body).then((d) => live && setData(d))
    return () => {
      live = false
    }
  }, [filter, generation])
  const reload = () => setGeneration((g) => g + 1)
  const act = async (o: OrderRow, action: 'markPaid' | 'cancel' | 'refund') => {
    try {
      await post(`/proxy/api/events/${event.id}/orders/${o.id}/${action}`, action === 'markPaid' ? { amount: o.grossPrice, paidAt: new Date().toISOString() } : undefined)
      toast(t(action === 'markPaid' ? 'ticketing.admin.markedPaid' : action === 'refund' ? 'ticketing.admin.refunded' : 'ticketing.admin.canceled'))
      reload()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  // online payments go back through their provider, whole or in part (docs/payments.md)
  const refundOnline = async (o: OrderRow) => {
    const given = prompt(t('payments.admin.refundAmount', { number: o.number }), '')
    if (given === null) return
    const amount = given.trim() ? Math.round(Number(given.replace(/\./g, '').replace(',', '.')) * 100) : null
    if (amount !== null && !(amount > 0)) return toast(t('errors.REFUND_TOO_LARGE'), 'error')
    try {
      await post(`/proxy/api/events/${event.id}/orders/${o.id}/refundPayment`, { amount })
      toast(t('payments.admin.refunded'))
      reload()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.orders')}</h2>
      <div class="tickets-filter">
        <input type="search" aria-label={t('ticketing.admin.search')} placeholder={t('ticketing.admin.search')} value={filter.search} onInput={(e) => setFilter({ ...filter, search: (e.target as HTMLInputElement).value, page: 0 })} />
        <select aria-label={t('ticketing.admin.payment')} value={filter.payment} onChange={(e) => setFilter({ ...filter, payment: (e.target as HTMLSelectElement).value, page: 0 })}>
          <option value="">{t('ticketing.admin.allPayments')}</option>
          {['OPEN', 'PAID', 'OVERDUE'].map((p) => (
            <option key={p} value={p}>
              {t(`ticketing.admin.payment.${p}`)}
            </option>
          ))}
        </select>
        <a class="btn btn-secondary" href={`/proxy/api/events/${event.id}/orders/export`} download>
          {t('ticketing.admin.export')}
        </a>
      </div>
      {!data ? (
        <Spinner />
      ) : data.items.length === 0 ? (
        <EmptyState>{t('ticketing.admin.noOrders')}</EmptyState>
      ) : (
        <div class="table-wrap">
          <table class="tickets-table">
            <thead>
              <tr>
                <th>{t('ticketing.admin.number')}</th>
                <th>{t('ticketing.admin.buyer')}</th>
                <th class="num">{t('ticketing.admin.amount')}</th>
                <th>{t('ticketing.admin.status')}</th>
                {canManage && <th />}
              </tr>
            </thead>
            <tbody>
              {data.items.map((o) => (
                <tr key={o.id}>
                  <td>
                    <strong>{o.number}</strong>
                    <br />
                    <small class="muted">{formatDateTime(o.createdAt, event.timezone)}</small>
                  </td>
                  <td>
                    {o.fullName}
                    <br />
                    <small class="muted">{o.email}</small>
                  </td>
                  <td class="num">
                    {money(o.grossPrice, o.currency)}
                    <br />
                    <small class="muted">{o.paymentMethod ? t(`ticketing.method.${o.paymentMethod}`) : '–'}</small>
                  </td>
                  <td>
                    <Badge tone={o.status === 'PAID' ? 'ok' : o.status === 'CANCELED' ? 'error' : o.overdue ? 'warn' : 'info'}>{t(`ticketing.status.${o.status}`)}</Badge>
                    {o.overdue && <Badge tone="warn">{t('ticketing.admin.payment.OVERDUE')}</Badge>}
                  </td>
                  {canManage && (
                    <td class="tickets-actions">
                      {!o.paidAt && ['OPEN', 'CONFIRMED'].includes(o.status) && (
                        <Button variant="secondary" onClick={() => void act(o, 'markPaid')}>
                          {t('ticketing.admin.markPaid')}
                        </Button>
                      )}
                      {o.status === 'PAID' && !ONLINE.includes(o.paymentMethod ?? '') && (
                        <Button variant="ghost" onClick={() => confirm(t('ticketing.admin.refundConfirm', { number: o.number })) && void act(o, 'refund')}>
                          {t('ticketing.admin.refund')}
                        </Button>
                      )}
                      {o.status === 'PAID' && ONLINE.includes(o.paymentMethod ?? '') && (
                        <Button variant="ghost" onClick={() => void refundOnline(o)}>
                          {t('payments.admin.refund')}
                        </Button>
                      )}
                      {['OPEN', 'CONFIRMED', 'PAID'].includes(o.status) && (
                        <Button variant="ghost" onClick={() => confirm(t('ticketing.admin.cancelConfirm', { number: o.number })) && void act(o, 'cancel')}>
                          {t('ticketing.admin.cancel')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.total > data.perPage && (
        <div class="tickets-paging">
          <Button variant="ghost" disabled={filter.page === 0} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
            ‹
          </Button>
          <span>{t('ticketing.admin.page', { page: filter.page + 1, pages: Math.ceil(data.total / data.perPage), total: data.total })}</span>
          <Button variant="ghost" disabled={(filter.page + 1) * data.perPage >= data.total} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
            ›
          </Button>
        </div>
      )}
    </Card>
  )
}
