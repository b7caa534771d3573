// The Tickets tab's category card (docs/ticketing.md, "Ticket categories" and "Selling rules"): name,
// price, tax, quota, minimum and maximum per order, the description buyers read, the sale period (in
// the event's time zone), a code that hides the category, and a category it is sold only with.
import { formatDateTime, formatMoney, utcToZonedInput, zonedToUtc } from '../../../../server/i18n/format'
import type { useResource } from '../../../components/hooks'
import { Badge, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import type { EventFull } from '../event-model'
import { type Draft, EditableList, Err } from './editable-list'
import { money, parseCents } from './money'

export interface Category {
  id: number
  displayName: string
  translations: Array<{ language: string; displayName: string }>
  saleFrom: string | null
  saleUntil: string | null
  grossPrice: number
  taxCode: string
  quota: number | null
  sold: number
  available: number | null
  minPerOrder: number
  maxPerOrder: number
  sortOrder: number
  description: string | null
  accessCode: string | null
  requiresCategoryId: number | null
}
export type CategoryList = { currency: string; taxCodes: string[]; items: Category[] }

/** A text input bound to one key of an EditableList draft (categories and coupons share it). */
export function draftInput(d: Draft, set: (k: string, v: string) => void, key: string, o: { inputMode?: 'decimal' | 'numeric'; placeholder?: string } = {}) {
  return <input name={key} value={d[key]} inputMode={o.inputMode} placeholder={o.placeholder} onInput={(e) => set(key, (e.target as HTMLInputElement).value)} />
}

/** The rules of a category as short badges for its row. */
function Rules({ c, items, tz, eventId }: { c: Category; items: Category[]; tz: string; eventId: number }) {
  const now = new Date().toISOString()
  const required = items.find((x) => x.id === c.requiresCategoryId)
  return (
    <div class="category-rules">
      <small>{t('ticketing.admin.perOrder', { min: c.minPerOrder, max: c.maxPerOrder })}</small>
      {c.saleFrom && c.saleFrom > now && <Badge>{t('ticketing.admin.saleFromBadge', { date: formatDateTime(c.saleFrom, tz) })}</Badge>}
      {c.saleUntil && c.saleUntil < now ? <Badge tone="error">{t('ticketing.admin.saleEnded')}</Badge> : c.saleUntil && <Badge>{t('ticketing.admin.saleUntilBadge', { date: formatDateTime(c.saleUntil, tz) })}</Badge>}
      {required && <Badge>{t('ticketing.admin.requiresBadge', { name: required.displayName })}</Badge>}
      {c.accessCode && (
        <>
          <Badge tone="warn">{t('ticketing.admin.hidden', { code: c.accessCode })}</Badge>
          <small>
            {t('ticketing.admin.codeLink')}: <code>{`${location.origin}/public/event/${eventId}?code=${c.accessCode}`}</code>
          </small>
        </>
      )}
    </div>
  )
}

export function Categories({ event, res, canEdit }: { event: EventFull; res: ReturnType<typeof useResource<CategoryList>>; canEdit: boolean }) {
  if (!res.data) return <Spinner />
  const { currency, taxCodes, items } = res.data
  const tz = event.timezone
  const local = (iso: string | null) => (iso ? utcToZonedInput(iso, tz) : '')
  const instant = (v: string) => (v ? zonedToUtc(v, tz).toISOString() : null)
  return (
    <EditableList<Category>
      title={t('ticketing.admin.categories')}
      url={`/proxy/api/events/${event.id}/ticketCategories`}
      items={items}
      emptyText={t('ticketing.admin.noCategories')}
      head={
        <>
          <th>{t('ticketing.admin.name')}</th>
          <th class="num">{t('ticketing.admin.price')}</th>
          <th>{t('ticketing.admin.tax')}</th>
          <th class="num">{t('ticketing.admin.sold')}</th>
          <th>{t('ticketing.admin.rules')}</th>
        </>
      }
      row={(c) => (
        <>
          <td>
            {c.displayName}
            {c.description && <small class="category-description">{c.description}</small>}
          </td>
          <td class="num">{money(c.grossPrice, currency)}</td>
          <td>{t(`ticketing.tax.${c.taxCode}`)}</td>
          <td class="num">{c.quota == null ? c.sold : `${c.sold} / ${c.quota}`}</td>
          <td>
            <Rules c={c} items={items} tz={tz} eventId={event.id} />
          </td>
        </>
      )}
      name={(c) => c.displayName}
      canEdit={canEdit}
      canDelete={(c) => c.sold === 0}
      blank={{ displayName: '', price: '', taxCode: event.currency === 'CHF' ? 'TAX_CH_NORMAL' : 'TAX_19', quota: '', minPerOrder: '0', maxPerOrder: '10', description: '', saleFrom: '', saleUntil: '', accessCode: '', requiresCategoryId: '' }}
      draftOf={(c) => ({
        displayName: c.displayName,
        price: formatMoney(c.grossPrice),
        taxCode: c.taxCode,
        quota: c.quota == null ? '' : String(c.quota),
        minPerOrder: String(c.minPerOrder),
        maxPerOrder: String(c.maxPerOrder),
        description: c.description ?? '',
        saleFrom: local(c.saleFrom),
        saleUntil: local(c.saleUntil),
        accessCode: c.accessCode ?? '',
        requiresCategoryId: c.requiresCategoryId == null ? '' : String(c.requiresCategoryId),
      })}
      bodyOf={(d, editing) => {
        const grossPrice = parseCents(d.price)
        if (grossPrice == null) return { errors: { grossPrice: 'INVALID' } }
        // fields the form does not show (translations, order) are sent back as they are
        const kept = editing ? { translations: editing.translations, sortOrder: editing.sortOrder } : { sortOrder: items.length }
        return {
          ...kept,
          displayName: d.displayName,
          grossPrice,
          taxCode: d.taxCode,
          quota: d.quota.trim() ? Number(d.quota) : null,
          minPerOrder: Number(d.minPerOrder) || 0,
          maxPerOrder: Number(d.maxPerOrder) || 10,
          description: d.description,
          saleFrom: instant(d.saleFrom),
          saleUntil: instant(d.saleUntil),
          accessCode: d.accessCode.trim(),
          requiresCategoryId: d.requiresCategoryId ? Number(d.requiresCategoryId) : null,
        }
      }}
      fields={(d, set, errors) => (
        <>
          <label>
            {t('ticketing.admin.name')}
            {draftInput(d, set, 'displayName')}
            <Err code={errors.displayName} />
          </label>
          <label>
            {t('ticketing.admin.priceGross')}
            {draftInput(d, set, 'price', { inputMode: 'decimal', placeholder: '25,00' })}
            <Err code={errors.grossPrice} />
          </label>
          <label>
            {t('ticketing.admin.tax')}
            <select name="taxCode" value={d.taxCode} onChange={(e) => set('taxCode', (e.target as HTMLSelectElement).value)}>
              {taxCodes.map((c) => (
                <option key={c} value={c}>
                  {t(`ticketing.tax.${c}`)}
                </option>
              ))}
            </select>
            <Err code={errors.taxCode} />
          </label>
          <label>
            {t('ticketing.admin.quota')}
            {draftInput(d, set, 'quota', { inputMode: 'numeric', placeholder: t('ticketing.admin.unlimited') })}
            <Err code={errors.quota} />
          </label>
          <label>
            {t('ticketing.admin.minPerOrder')}
            {draftInput(d, set, 'minPerOrder', { inputMode: 'numeric' })}
            <Err code={errors.minPerOrder} />
          </label>
          <label>
            {t('ticketing.admin.maxPerOrder')}
            {draftInput(d, set, 'maxPerOrder', { inputMode: 'numeric' })}
            <Err code={errors.maxPerOrder} />
          </label>
          <label class="tickets-form-wide">
            {t('ticketing.admin.description')}
            <textarea name="description" rows={2} maxLength={2000} value={d.description} onInput={(e) => set('description', (e.target as HTMLTextAreaElement).value)} />
            <Err code={errors.description} />
          </label>
          <label>
            {t('ticketing.admin.saleFrom')}
            <input type="datetime-local" name="saleFrom" value={d.saleFrom} onInput={(e) => set('saleFrom', (e.target as HTMLInputElement).value)} />
            <Err code={errors.saleFrom} />
          </label>
          <label>
            {t('ticketing.admin.saleUntil')}
            <input type="datetime-local" name="saleUntil" value={d.saleUntil} onInput={(e) => set('saleUntil', (e.target as HTMLInputElement).value)} />
            <Err code={errors.saleUntil} />
          </label>
          <p class="tickets-form-note muted">{t('ticketing.admin.saleHint')}</p>
          <label>
            {t('ticketing.admin.accessCode')}
            {draftInput(d, set, 'accessCode')}
            <Err code={errors.accessCode} />
          </label>
          <label>
            {t('ticketing.admin.requires')}
            <select name="requiresCategoryId" value={d.requiresCategoryId} onChange={(e) => set('requiresCategoryId', (e.target as HTMLSelectElement).value)}>
              <option value="">{t('ticketing.admin.requiresNone')}</option>
              {items.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.displayName}
                </option>
              ))}
            </select>
            <Err code={errors.requiresCategoryId} />
          </label>
          <p class="tickets-form-note muted">{t('ticketing.admin.accessCodeHint')}</p>
        </>
      )}
      addLabel={t('ticketing.admin.addCategory')}
      savedText={t('ticketing.admin.categorySaved')}
      onChanged={() => res.reload()}
    />
  )
}

/** A coupon's categories in a draft: their ids joined by commas (none = the whole order). */
export const idsOf = (v: string) => v.split(',').filter(Boolean).map(Number)

/** "Gilt für": the categories a coupon reduces, several at once; none chosen = the whole order. */
export function CategoryScope({ categories, value, onChange, error, name = 'categoryIds' }: { categories: Array<{ id: number; displayName: string }>; value: string; onChange(v: string): void; error?: string; name?: string }) {
  const chosen = idsOf(value)
  return (
    <label class="tickets-form-wide">
      {t('ticketing.admin.appliesTo')}
      <select
        name={name}
        multiple
        size={Math.min(5, categories.length + 1)}
        onChange={(e) => onChange([...(e.target as HTMLSelectElement).selectedOptions].map((o) => o.value).filter(Boolean).join(','))}
      >
        <option value="" selected={chosen.length === 0}>
          {t('ticketing.admin.wholeOrder')}
        </option>
        {categories.map((c) => (
          <option key={c.id} value={c.id} selected={chosen.includes(c.id)}>
            {c.displayName}
          </option>
        ))}
      </select>
      <small class="muted">{t('ticketing.admin.categoryIdsHint')}</small>
      <Err code={error} />
    </label>
  )
}
