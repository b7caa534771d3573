// /agency/bank (AGENCY.MANAGE): import a bank statement (CAMT.053); exact transfers mark their orders
// paid, every other credit is listed here for a person to assign to an order or dismiss
// (docs/ticketing.md, "Bank statements").
import { useState } from 'preact/hooks'
import { api, errorText, post } from '../../api/client'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { formatDate, formatMoney } from '../../../server/i18n/format'
import { fieldMessage, t } from '../../i18n'
import { Pager } from './common'

interface OrderRef {
  id: number
  number: string
  grossPrice: number
  status: string
}
interface Entry {
  id: number
  bookingDate: string
  amountCents: number
  currency: string
  debtorName: string | null
  remittance: string
  status: string
  order: OrderRef | null
  candidates: OrderRef[]
}
interface Summary {
  credits: number
  matched: number
  listed: number
  alreadyImported: number
  debits: number
}

const TONE: Record<string, 'ok' | 'warn' | 'error' | 'info' | 'neutral'> = { MATCHED: 'ok', ASSIGNED: 'ok', DISMISSED: 'neutral', PARTIAL: 'warn', OVERPAID: 'warn', UNKNOWN: 'error', AMBIGUOUS: 'warn', NOT_OPEN: 'warn', MATCHING: 'warn' }
const DECIDABLE = new Set(['PARTIAL', 'OVERPAID', 'UNKNOWN', 'AMBIGUOUS', 'NOT_OPEN', 'MATCHING'])
const money = (cents: number, currency: string) => formatMoney(cents, currency === 'EUR' ? 'EURO' : currency)

export function BankPage() {
  const [view, setView] = useState<'OPEN' | 'ALL'>('OPEN')
  const [page, setPage] = useState(0)
  const [file, setFile] = useState<File | null>(null)
  const [busy, setBusy] = useState(false)
  const [summary, setSummary] = useState<Summary | null>(null)
  const [error, setError] = useState<string | null>(null)
  const perPage = 50
  const res = useResource<{ content: Entry[]; totalElements: number }>(`/proxy/api/bank/entries?view=${view}&page=${page}&size=${perPage}`)
  const upload = async (e: Event) => {
    e.preventDefault()
    if (!file) return
    setBusy(true)
    setError(null)
    try {
      const form = new FormData()
      form.append('file', file)
      setSummary(await api<Summary>('POST', '/proxy/api/bank/statements', form))
      await res.reload()
    } catch (err) {
      setSummary(null)
      setError(errorText(err))
    }
    setBusy(false)
  }
  return (
    <>
      <PageHeader title={t('bank.title')} subtitle={t('bank.subtitle')} />
      <Card>
        <form class="bank-upload" onSubmit={upload} aria-label={t('bank.import')}>
          <label>
            <span>{t('bank.file')}</span>
            <input type="file" name="file" accept=".xml,application/xml,text/xml" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
          </label>
          <Button type="submit" busy={busy} disabled={!file}>
            {t('bank.import')}
          </Button>
        </form>
        {summary && <Alert tone="ok">{t('bank.summary', { ...summary })}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
      </Card>
      <div class="bank-views" role="group">
        {(['OPEN', 'ALL'] as const).map((v) => (
          <Button key={v} variant={view === v ? 'primary' : 'ghost'} aria-pressed={view === v ? 'true' : 'false'} onClick={() => (setView(v), setPage(0))}>
            {t(v === 'OPEN' ? 'bank.open' : 'bank.all')}
          </Button>
        ))}
      </div>
      {!res.data && !res.error && <Spinner />}
      {res.error && <Alert tone="error">{errorText(res.error)}</Alert>}
      {res.data && res.data.totalElements === 0 && <EmptyState>{t('bank.empty')}</EmptyState>}
      {res.data && res.data.totalElements > 0 && (
        <Card>
          <div class="table-wrap">
            <table class="table bank-table">
              <thead>
                <tr>
                  <th scope="col">{t('bank.col.date')}</th>
                  <th scope="col" class="num">{t('bank.col.amount')}</th>
                  <th scope="col">{t('bank.col.payer')}</th>
                  <th scope="col">{t('bank.col.text')}</th>
                  <th scope="col">{t('bank.col.status')}</th>
                </tr>
              </thead>
              <tbody>
                {res.data.content.map((e) => (
                  <EntryRow key={e.id} e={e} onDone={() => void res.reload()} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} perPage={perPage} total={res.data.totalElements} onPage={setPage} />
        </Card>
      )}
    </>
  )
}

function EntryRow({ e, onDone }: { e: Entry; onDone(): void }) {
  const [number, setNumber] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const assign = async (orderNumber: string) => {
    try {
      await post(`/proxy/api/bank/entries/${e.id}/assign`, { orderNumber })
      toast(t('bank.assigned', { number: orderNumber.toUpperCase() }))
      onDone()
    } catch (err) {
      const f = (err as { errorFields?: Array<{ errorType: string }> }).errorFields ?? []
      if (f.length) setFieldError(f[0]!.errorType)
      else toast(errorText(err), 'error', 8000)
    }
  }
  const dismiss = async () => {
    try {
      await post(`/proxy/api/bank/entries/${e.id}/dismiss`)
      toast(t('bank.dismissed'))
      onDone()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  const linked = e.order ?? (e.candidates.length === 1 ? e.candidates[0]! : null)
  return (
    <>
      <tr data-entry={e.id} class={DECIDABLE.has(e.status) ? 'bank-open' : undefined}>
        <td class="nowrap">{formatDate(`${e.bookingDate}T12:00:00Z`, 'UTC')}</td>
        <td class="num nowrap">{money(e.amountCents, e.currency)}</td>
        <td>{e.debtorName ?? '–'}</td>
        <td class="bank-text">
          {e.remittance}
          {linked && <div class="muted">{t('bank.orderOf', { number: linked.number, amount: money(linked.grossPrice, e.currency) })}</div>}
        </td>
        <td>
          <Badge tone={TONE[e.status] ?? 'neutral'}>{t(`bank.status.${e.status}`)}</Badge>
        </td>
      </tr>
      {DECIDABLE.has(e.status) && (
        <tr class="bank-decide-row" data-decide={e.id}>
          <td colSpan={5}>
            <div class="bank-decide" role="group" aria-label={t('bank.col.action')}>
              {e.candidates.map((c) => (
                <Button key={c.id} variant="secondary" onClick={() => void assign(c.number)}>
                  {t('bank.assignTo', { number: c.number })}
                </Button>
              ))}
              <form
                class="bank-assign"
                onSubmit={(ev) => {
                  ev.preventDefault()
                  void assign(number)
                }}
              >
                <input name="orderNumber" placeholder={t('bank.orderNumber')} aria-label={t('bank.orderNumber')} maxLength={20} value={number} onInput={(ev) => (setNumber((ev.target as HTMLInputElement).value), setFieldError(null))} />
                <Button type="submit" variant="ghost" disabled={!number.trim()}>
                  {t('bank.assign')}
                </Button>
                {fieldError && <small class="field-error">{fieldMessage(fieldError)}</small>}
              </form>
              <Button variant="ghost" onClick={() => void dismiss()}>
                {t('bank.dismiss')}
              </Button>
            </div>
          </td>
        </tr>
      )}
    </>
  )
}
