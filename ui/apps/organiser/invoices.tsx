// /agency/invoices (AGENCY.MANAGE): the accountant's page — every invoice and credit note of a period
// with net/tax/gross per rate and state, filters by period and event, the files of each, and the
// period as ZIP (PDF + XML), bookkeeping CSV and DATEV Buchungsstapel (docs/invoices.md).
import { useState } from 'preact/hooks'
import { ApiError, answerOf, errorText, session } from '../../api/client'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { formatDate, formatMoney } from '../../../server/i18n/format'
import { t } from '../../i18n'
import { Pager } from './common'

interface Group {
  rate: number | null
  netCents: number
  taxCents: number
  grossCents: number
}
interface Doc {
  id: number
  number: string
  kind: 'INVOICE' | 'CANCELLATION'
  issueDate: string
  orderNumber: string
  eventName: string
  buyer: string
  currency: string
  cancelsNumber: string | null
  state: 'OPEN' | 'PAID' | 'PARTLY_CREDITED' | 'CANCELLED' | 'CREDIT_NOTE'
  taxGroups: Group[]
  totals: { netCents: number; taxCents: number; grossCents: number }
}
interface DocPage {
  content: Doc[]
  totalElements: number
  sums: Group[]
}
interface Filter {
  from: string
  to: string
  eventId: string
}

const TONE = { OPEN: 'warn', PAID: 'ok', PARTLY_CREDITED: 'info', CANCELLED: 'neutral', CREDIT_NOTE: 'neutral' } as const
const pad = (n: number) => String(n).padStart(2, '0')
/** first and last day of a YYYY-MM month */
function monthSpan(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return { from: `${month}-01`, to: `${month}-${pad(last)}` }
}
const thisMonth = () => {
  const d = new Date()
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`
}
const query = (f: Filter) =>
  Object.entries(f)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
const rateLabel = (r: number | null) => (r === null ? t('accounting.noTax') : `${String(r).replace('.', ',')} %`)

/** Fetches a file with the account header; an error answer is shown, not saved as the file. */
async function download(path: string) {
  try {
    const headers: Record<string, string> = {}
    if (session.accountId) headers['x-account-id'] = session.accountId
    const res = await fetch(path, { headers, credentials: 'same-origin' })
    if (!res.ok) await answerOf(Promise.resolve(res))
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download'
    const url = URL.createObjectURL(await res.blob())
    const a = document.createElement('a')
    a.href = url
    a.download = name
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  } catch (err) {
    toast(err instanceof ApiError ? errorText(err) : errorText(null), 'error', 8000)
  }
}

export function InvoicesPage() {
  const initial = { ...monthSpan(thisMonth()), eventId: '' }
  const [month, setMonth] = useState(thisMonth())
  const [draft, setDraft] = useState<Filter>(initial)
  const [filter, setFilter] = useState<Filter>(initial)
  const [page, setPage] = useState(0)
  const [busy, setBusy] = useState<string | null>(null)
  const perPage = 50
  const q = query(filter)
  const { data, error } = useResource<DocPage>(`/proxy/api/invoices/accounting?page=${page}&size=${perPage}${q ? `&${q}` : ''}`)
  const events = useResource<Array<{ id: number; displayName: string }>>('/proxy/api/events')
  const set = (k: keyof Filter) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value })
  const apply = (e: Event) => {
    e.preventDefault()
    setPage(0)
    setFilter(draft)
  }
  const pickMonth = (e: Event) => {
    const v = (e.target as HTMLInputElement).value
    setMonth(v)
    if (v) setDraft({ ...draft, ...monthSpan(v) })
  }
  const get = async (kind: 'zip' | 'csv' | 'datev') => {
    setBusy(kind)
    await download(`/proxy/api/invoices/accounting/${kind}${q ? `?${q}` : ''}`)
    setBusy(null)
  }
  return (
    <>
      <PageHeader title={t('accounting.title')} subtitle={t('accounting.subtitle')} />
      <Card>
        <form class="accounting-filter" onSubmit={apply} aria-label={t('accounting.filter.apply')}>
          <label>
            <span>{t('accounting.filter.month')}</span>
            <input type="month" name="month" value={month} onInput={pickMonth} />
          </label>
          <label>
            <span>{t('accounting.filter.from')}</span>
            <input type="date" name="from" value={draft.from} onInput={set('from')} />
          </label>
          <label>
            <span>{t('accounting.filter.to')}</span>
            <input type="date" name="to" value={draft.to} onInput={set('to')} />
          </label>
          <label>
            <span>{t('accounting.filter.event')}</span>
            <select name="eventId" value={draft.eventId} onChange={set('eventId')}>
              <option value="">{t('accounting.filter.allEvents')}</option>
              {events.data?.map((ev) => (
                <option key={ev.id} value={String(ev.id)}>
                  {ev.displayName}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary">
            {t('accounting.filter.apply')}
          </Button>
        </form>
        <div class="accounting-downloads">
          <Button variant="secondary" busy={busy === 'zip'} onClick={() => void get('zip')}>
            {t('accounting.download.zip')}
          </Button>
          <Button variant="secondary" busy={busy === 'csv'} onClick={() => void get('csv')}>
            {t('accounting.download.csv')}
          </Button>
          <Button variant="secondary" busy={busy === 'datev'} onClick={() => void get('datev')}>
            {t('accounting.download.datev')}
          </Button>
          <small class="muted">{t('accounting.download.datevHint')}</small>
        </div>
      </Card>
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.totalElements === 0 && <EmptyState>{t('accounting.empty')}</EmptyState>}
      {data && data.totalElements > 0 && (
        <Card>
          <p class="muted">{t('accounting.count', { total: data.totalElements })}</p>
          <div class="table-wrap">
            <table class="table accounting-table">
              <thead>
                <tr>
                  <th scope="col">{t('accounting.col.number')}</th>
                  <th scope="col">{t('accounting.col.date')}</th>
                  <th scope="col">{t('accounting.col.buyer')}</th>
                  <th scope="col">{t('accounting.col.rate')}</th>
                  <th scope="col" class="num">{t('accounting.col.net')}</th>
                  <th scope="col" class="num">{t('accounting.col.tax')}</th>
                  <th scope="col" class="num">{t('accounting.col.gross')}</th>
                  <th scope="col">{t('accounting.col.state')}</th>
                </tr>
              </thead>
              <tbody>
                {data.content.map((d) => (
                  <tr key={d.id} data-number={d.number}>
                    <td class="nowrap">
                      <strong>{d.number}</strong>
                      {d.cancelsNumber && <div class="muted">{t('accounting.kind.CANCELLATION', { number: d.cancelsNumber })}</div>}
                      <div class="accounting-files">
                        <a href={`/proxy/api/invoices/${d.id}/pdf`} download aria-label={`${d.number} PDF`}>
                          PDF
                        </a>{' '}
                        ·{' '}
                        <a href={`/proxy/api/invoices/${d.id}/xrechnung`} download aria-label={`${d.number} XML`}>
                          XML
                        </a>
                      </div>
                    </td>
                    <td class="nowrap">{formatDate(`${d.issueDate}T12:00:00Z`, 'UTC')}</td>
                    <td>
                      {d.buyer}
                      <div class="muted">
                        {d.eventName} · {d.orderNumber}
                      </div>
                    </td>
                    <td class="nowrap">
                      {d.taxGroups.map((g) => (
                        <div key={String(g.rate)}>{rateLabel(g.rate)}</div>
                      ))}
                    </td>
                    {(['netCents', 'taxCents', 'grossCents'] as const).map((k) => (
                      <td key={k} class="num nowrap">
                        {d.taxGroups.map((g) => (
                          <div key={String(g.rate)}>{formatMoney(g[k], d.currency)}</div>
                        ))}
                      </td>
                    ))}
                    <td>
                      <Badge tone={TONE[d.state]}>{t(`accounting.state.${d.state}`)}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                {data.sums.map((g, i) => (
                  <tr key={String(g.rate)}>
                    <th scope="row" colSpan={3}>
                      {i === 0 ? t('accounting.sums') : ''}
                    </th>
                    <td>{rateLabel(g.rate)}</td>
                    <td class="num nowrap">{formatMoney(g.netCents, data.content[0]?.currency)}</td>
                    <td class="num nowrap">{formatMoney(g.taxCents, data.content[0]?.currency)}</td>
                    <td class="num nowrap">{formatMoney(g.grossCents, data.content[0]?.currency)}</td>
                    <td />
                  </tr>
                ))}
              </tfoot>
            </table>
          </div>
          <Pager page={page} perPage={perPage} total={data.totalElements} onPage={setPage} />
        </Card>
      )}
    </>
  )
}
