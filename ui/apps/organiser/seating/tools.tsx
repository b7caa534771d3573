// The editor's price categories (name, colour) and its tools that place chairs: a row, an arc, a block
// of rows × columns, a table with N places, numbered by the scheme chosen.
import { useState } from 'preact/hooks'
import { Button, Card } from '../../../components/ui'
import { t } from '../../../i18n'
import { type EChair, type ECategory, type EArea, type EPlan, uid, clamp, rowLetter, seatNumbers, arcPositions, nextTop, unlinkedCategories, COLORS } from './model'

/** A ticket category of the event a price category may be linked to ("Parkett (25,00 €)"). */
export interface TicketChoice {
  id: number
  label: string
}

/**
 * The plan's price categories: name, colour and, on an event that sells tickets, the ticket category
 * each one's chairs are sold as (`ticketCategoryId`). A category used by chairs without one stops
 * the sale (SEATING_NOT_LINKED); the select says so beside it.
 */
export function Categories({ plan, change, tickets }: { plan: EPlan; change(f: (p: EPlan) => EPlan): void; tickets: TicketChoice[] | null }) {
  const set = (key: string, patch: Partial<ECategory>) => change((p) => ({ ...p, priceCategories: p.priceCategories.map((c) => (c.key === key ? { ...c, ...patch } : c)) }))
  const unlinked = new Set(unlinkedCategories(plan).map((c) => c.key))
  const selling = !!tickets && tickets.length > 0
  return (
    <Card>
      <h3>{t('seating.categories')}</h3>
      {plan.priceCategories.map((c, i) => (
        <div key={c.key} class="seating-category-block">
          <div class="seating-category">
            <input type="color" aria-label={t('seating.categoryColor', { n: i + 1 })} value={c.color} onChange={(e) => set(c.key, { color: (e.target as HTMLInputElement).value })} />
            <input aria-label={t('seating.categoryName', { n: i + 1 })} value={c.displayName} onChange={(e) => set(c.key, { displayName: (e.target as HTMLInputElement).value })} />
          </div>
          {selling && (
            <label class="field seating-category-ticket">
              {t('seating.categoryTicket', { name: c.displayName })}
              <select
                aria-invalid={unlinked.has(c.key) || undefined}
                value={c.ticketCategoryId == null ? '' : String(c.ticketCategoryId)}
                onChange={(e) => {
                  const v = (e.target as HTMLSelectElement).value
                  set(c.key, { ticketCategoryId: v ? Number(v) : null })
                }}
              >
                <option value="">{t('seating.categoryTicketNone')}</option>
                {tickets!.map((x) => (
                  <option key={x.id} value={String(x.id)}>
                    {x.label}
                  </option>
                ))}
              </select>
              {unlinked.has(c.key) && <small class="field-error">{t('seating.categoryTicketMissing')}</small>}
            </label>
          )}
        </div>
      ))}
      <Button
        variant="ghost"
        onClick={() => change((p) => ({ ...p, priceCategories: [...p.priceCategories, { key: uid(), displayName: t('seating.newCategory', { n: p.priceCategories.length + 1 }), color: COLORS[p.priceCategories.length % COLORS.length], ticketCategoryId: null }] }))}
      >
        {t('seating.addCategory')}
      </Button>
    </Card>
  )
}

type Tool = 'ROW' | 'ARC' | 'BLOCK' | 'TABLE'

export function Tools({ plan, area, onAdd }: { plan: EPlan; area: EArea; onAdd(c: EChair[]): void }) {
  const [tool, setTool] = useState<Tool>('BLOCK')
  const [rows, setRows] = useState(3)
  const [cols, setCols] = useState(10)
  const [firstRow, setFirstRow] = useState('A')
  const [scheme, setScheme] = useState<'LTR' | 'MIDDLE'>('LTR')
  const [spacing, setSpacing] = useState(1)
  const [places, setPlaces] = useState(8)
  const [radius, setRadius] = useState(30)
  const [angle, setAngle] = useState(90)
  /** null: not chosen yet (the first category); '': none */
  const [category, setCategory] = useState<string | null>(null)
  // keys change when a save gives categories their ids: a stale choice falls back to the first category
  const cat = category === '' ? null : plan.priceCategories.some((c) => c.key === category) ? category : (plan.priceCategories[0]?.key ?? null)
  const build = () => {
    const size = 2.5
    const top = nextTop(area)
    const out: EChair[] = []
    if (tool === 'TABLE') {
      const n = area.chairs.filter((c) => c.places > 1).length + 1
      out.push({ uid: uid(), label: t('seating.tableLabel', { n }), priceCategory: cat, viewType: 'CIRCLE', percentX: 10, percentY: clamp(top, 0, 88), percentWidth: 8, percentHeight: 12, options: [], status: null, places, minAmount: 1, maxAmount: places })
      return onAdd(out)
    }
    if (tool === 'ARC') {
      const h = (size * area.width) / area.height
      const letter = /^[A-Za-z]$/.test(firstRow) ? firstRow.toUpperCase() : firstRow
      const nums = seatNumbers(cols, scheme)
      arcPositions(cols, radius, angle, area, clamp(top, 0, 90), size, h).forEach((q, j) =>
        out.push({ uid: uid(), label: `${letter} ${nums[j]}`, priceCategory: cat, viewType: 'CIRCLE', percentX: clamp(q.x, 0, 100 - size), percentY: clamp(q.y, 0, 100 - h), percentWidth: size, percentHeight: h, options: [], status: null, places: 1, minAmount: 1, maxAmount: 1 }),
      )
      return onAdd(out)
    }
    const r = tool === 'ROW' ? 1 : rows
    const start = Math.max(0, firstRow.toUpperCase().charCodeAt(0) - 65)
    const nums = seatNumbers(cols, scheme)
    for (let i = 0; i < r; i++) {
      const letter = /^[A-Za-z]$/.test(firstRow) ? rowLetter(start + i) : `${firstRow}${i + 1}`
      for (let j = 0; j < cols; j++) {
        out.push({
          uid: uid(),
          label: `${letter} ${nums[j]}`,
          priceCategory: cat,
          viewType: 'CIRCLE',
          percentX: clamp(10 + j * (size + spacing), 0, 100 - size),
          percentY: clamp(top + i * (size * 1.5 + spacing), 0, 100 - size * 1.5),
          percentWidth: size,
          percentHeight: size * 1.5,
          options: [],
          status: null,
          places: 1,
          minAmount: 1,
          maxAmount: 1,
        })
      }
    }
    onAdd(out)
  }
  const num = (v: number, set: (n: number) => void, label: string, min: number, max: number, step = 1) => (
    <label class="field field-half">
      {label}
      <input type="number" min={min} max={max} step={step} value={v} onChange={(e) => set(clamp(Number((e.target as HTMLInputElement).value) || min, min, max))} />
    </label>
  )
  return (
    <Card>
      <h3>{t('seating.tools')}</h3>
      <div class="button-row" role="group" aria-label={t('seating.tools')}>
        {(['ROW', 'ARC', 'BLOCK', 'TABLE'] as const).map((k) => (
          <Button key={k} variant={tool === k ? 'primary' : 'secondary'} aria-pressed={tool === k} onClick={() => setTool(k)}>
            {t(`seating.tool.${k}`)}
          </Button>
        ))}
      </div>
      <div class="form-grid">
        {tool === 'BLOCK' && num(rows, setRows, t('seating.rows'), 1, 50)}
        {tool !== 'TABLE' && num(cols, setCols, tool === 'BLOCK' ? t('seating.columns') : t('seating.chairs'), 1, 100)}
        {(tool === 'ROW' || tool === 'BLOCK') && num(spacing, setSpacing, t('seating.spacing'), 0, 10, 0.5)}
        {tool === 'ARC' && num(radius, setRadius, t('seating.radius'), 5, 100)}
        {tool === 'ARC' && num(angle, setAngle, t('seating.angle'), 10, 360, 5)}
        {tool === 'TABLE' && num(places, setPlaces, t('seating.places'), 2, 100)}
        {tool !== 'TABLE' && (
          <>
            <label class="field field-half">
              {t('seating.firstRow')}
              <input value={firstRow} maxLength={3} onChange={(e) => setFirstRow((e.target as HTMLInputElement).value.trim() || 'A')} />
            </label>
            <label class="field field-half">
              {t('seating.numbering')}
              <select value={scheme} onChange={(e) => setScheme((e.target as HTMLSelectElement).value as 'LTR' | 'MIDDLE')}>
                <option value="LTR">{t('seating.numbering.LTR')}</option>
                <option value="MIDDLE">{t('seating.numbering.MIDDLE')}</option>
              </select>
            </label>
          </>
        )}
        <label class="field field-half">
          {t('seating.category')}
          <select value={cat ?? ''} onChange={(e) => setCategory((e.target as HTMLSelectElement).value)}>
            <CategoryOptions plan={plan} />
          </select>
        </label>
      </div>
      <Button onClick={build}>{t(`seating.place.${tool}`)}</Button>
    </Card>
  )
}

/** The choices of a chair's price category: none, or one of the plan's. */
export function CategoryOptions({ plan }: { plan: EPlan }) {
  return (
    <>
      <option value="">{t('seating.noCategory')}</option>
      {plan.priceCategories.map((p) => (
        <option key={p.key} value={p.key}>
          {p.displayName}
        </option>
      ))}
    </>
  )
}
