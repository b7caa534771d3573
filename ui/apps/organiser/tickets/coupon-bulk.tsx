// The coupon bulk generator of the Tickets tab (docs/ticketing.md, "Coupons"): N one-use codes with
// a prefix, made in one call and saved at once as the CSV the organiser hands out.
import { useState } from 'preact/hooks'
import { formatDateTime, zonedToUtc } from '../../../../server/i18n/format'
import { errorText, post } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Button, Card } from '../../../components/ui'
import { t } from '../../../i18n'
import type { EventFull } from '../event-model'
import { type Draft, Err, type Errors } from './editable-list'
import { parseCents } from './money'
import { CategoryScope, idsOf } from './categories'

/** "immer", "ab …", "bis …" or "… – …" for a coupon's validity. */
export function validityText(from: string | null, until: string | null, tz: string) {
  if (from && until) return `${formatDateTime(from, tz)} – ${formatDateTime(until, tz)}`
  if (from) return t('ticketing.admin.validFromText', { date: formatDateTime(from, tz) })
  if (until) return t('ticketing.admin.validUntilText', { date: formatDateTime(until, tz) })
  return t('ticketing.admin.validAlways')
}

function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

const blank: Draft = { count: '', prefix: '', valueType: 'PERCENT', reduction: '', categoryIds: '', validFrom: '', validUntil: '' }

export function CouponBulk({ event, categories, onChanged }: { event: EventFull; categories: Array<{ id: number; displayName: string }>; onChanged(): Promise<unknown> }) {
  const [d, setD] = useState<Draft>(blank)
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  const set = (k: string, v: string) => setD((x) => ({ ...x, [k]: v }))
  const onInput = (k: string) => (e: Event) => set(k, (e.target as HTMLInputElement).value)
  const input = (k: string, inputMode?: 'numeric' | 'decimal') => <input name={`bulk-${k}`} inputMode={inputMode} value={d[k]} onInput={onInput(k)} />
  const when = (k: string) => <input type="datetime-local" name={`bulk-${k}`} value={d[k]} onInput={onInput(k)} />
  const instant = (v: string) => (v ? zonedToUtc(v, event.timezone).toISOString() : null)
  const submit = async (e: Event) => {
    e.preventDefault()
    const reduction = d.valueType === 'PERCENT' ? Number(d.reduction) : parseCents(d.reduction)
    const count = Number(d.count)
    const found: Errors = {}
    if (!Number.isInteger(count) || count < 1) found.count = 'TOO_SMALL'
    if (!reduction) found.reduction = 'INVALID'
    if (Object.keys(found).length) return setErrors(found)
    setBusy(true)
    try {
      const csv = await post<string>(`/proxy/api/events/${event.id}/coupons/bulk`, {
        count,
        prefix: d.prefix,
        valueType: d.valueType,
        reduction,
        categoryIds: idsOf(d.categoryIds),
        validFrom: instant(d.validFrom),
        validUntil: instant(d.validUntil),
      })
      saveFile(csv, `gutscheine-${event.id}.csv`)
      toast(t('ticketing.admin.bulkDone', { n: count }))
      setErrors({})
      setD(blank)
      await onChanged()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.errorType])))
      else toast(errorText(err), 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.bulkTitle')}</h2>
      <p class="muted">{t('ticketing.admin.bulkIntro')}</p>
      <form class="tickets-form" onSubmit={submit} noValidate>
        <label>
          {t('ticketing.admin.bulkCount')}
          {input('count', 'numeric')}
          <Err code={errors.count} />
        </label>
        <label>
          {t('ticketing.admin.bulkPrefix')}
          {input('prefix')}
          <Err code={errors.prefix} />
        </label>
        <label>
          {t('ticketing.admin.valueType')}
          <select name="bulk-valueType" value={d.valueType} onChange={(e) => set('valueType', (e.target as HTMLSelectElement).value)}>
            <option value="PERCENT">{t('ticketing.admin.percent')}</option>
            <option value="FIXED">{t('ticketing.admin.fixed')}</option>
          </select>
        </label>
        <label>
          {t('ticketing.admin.reduction')}
          {input('reduction', 'decimal')}
          <Err code={errors.reduction} />
        </label>
        <CategoryScope name="bulk-categoryIds" categories={categories} value={d.categoryIds} onChange={(v) => set('categoryIds', v)} error={errors.categoryIds ?? errors.categoryId} />
        <label>
          {t('ticketing.admin.validFrom')}
          {when('validFrom')}
          <Err code={errors.validFrom} />
        </label>
        <label>
          {t('ticketing.admin.validUntil')}
          {when('validUntil')}
          <Err code={errors.validUntil} />
        </label>
        <div class="tickets-form-actions">
          <Button type="submit" busy={busy}>
            {t('ticketing.admin.bulkSubmit')}
          </Button>
        </div>
      </form>
    </Card>
  )
}
