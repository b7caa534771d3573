// The "Buchhaltung (DATEV)" section of /agency/sales: what the accountant gives for the DATEV export
// (consultant and client number, fiscal year, account length, chart, debtor account, revenue account
// and BU-Schlüssel per tax rate). docs/invoices.md, "DATEV".
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, put } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Button, Card, Spinner } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'

interface Rate {
  rate: number | null
  account: string
  buKey: string | null
}
interface Settings {
  consultantNumber: number | null
  clientNumber: number | null
  fiscalYearStartMonth: number
  accountLength: number
  chart: 'SKR03' | 'SKR04'
  debtorAccount: string | null
  revenueAccounts: Rate[]
}
/** a rate row as typed: the rate as text ('' = no VAT) */
interface RateRow {
  rate: string
  account: string
  buKey: string
}

const num = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')))

export function AccountingSettingsCard() {
  const [v, setV] = useState<Settings | null>(null)
  const [rows, setRows] = useState<RateRow[]>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const load = (s: Settings) => {
    setV(s)
    const list = s.revenueAccounts.length ? s.revenueAccounts : [{ rate: 19, account: '', buKey: null }, { rate: 7, account: '', buKey: null }]
    setRows(list.map((r) => ({ rate: r.rate === null ? '' : String(r.rate).replace('.', ','), account: r.account, buKey: r.buKey ?? '' })))
  }
  useEffect(() => {
    void get<Settings>('/proxy/api/agency/accountingSettings').then(load)
  }, [])
  if (!v) return <Spinner />
  const save = async (e: Event) => {
    e.preventDefault()
    try {
      const body = { ...v, revenueAccounts: rows.filter((r) => r.account.trim() || r.rate.trim()).map((r) => ({ rate: num(r.rate), account: r.account.trim(), buKey: r.buKey.trim() || null })) }
      load(await put<Settings>('/proxy/api/agency/accountingSettings', body))
      setErrors({})
      toast(t('accounting.settings.saved'))
    } catch (err) {
      const f = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (f.length) setErrors(Object.fromEntries(f.map((x) => [x.field, x.errorType])))
      else toast(errorText(err), 'error')
    }
  }
  const numberField = (k: 'consultantNumber' | 'clientNumber') => (
    <label>
      {t(`accounting.settings.${k}`)}
      <input name={k} inputMode="numeric" value={v[k] == null ? '' : String(v[k])} onInput={(e) => setV({ ...v, [k]: num((e.target as HTMLInputElement).value) })} />
      {errors[k] && <small class="field-error">{fieldMessage(errors[k])}</small>}
    </label>
  )
  const setRow = (i: number, k: keyof RateRow, value: string) => setRows(rows.map((r, j) => (j === i ? { ...r, [k]: value } : r)))
  return (
    <Card>
      <h2>{t('accounting.settings.title')}</h2>
      <p class="muted">{t('accounting.settings.intro')}</p>
      <form class="tickets-form" onSubmit={save} noValidate aria-label={t('accounting.settings.title')}>
        {numberField('consultantNumber')}
        {numberField('clientNumber')}
        <label>
          {t('accounting.settings.fiscalYearStartMonth')}
          <select name="fiscalYearStartMonth" value={String(v.fiscalYearStartMonth)} onChange={(e) => setV({ ...v, fiscalYearStartMonth: Number((e.target as HTMLSelectElement).value) })}>
            {Array.from({ length: 12 }, (_, i) => (
              <option key={i} value={String(i + 1)}>
                {String(i + 1).padStart(2, '0')}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('accounting.settings.accountLength')}
          <select name="accountLength" value={String(v.accountLength)} onChange={(e) => setV({ ...v, accountLength: Number((e.target as HTMLSelectElement).value) })}>
            {[4, 5, 6, 7, 8].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('accounting.settings.chart')}
          <select name="chart" value={v.chart} onChange={(e) => setV({ ...v, chart: (e.target as HTMLSelectElement).value as Settings['chart'] })}>
            <option value="SKR03">SKR 03</option>
            <option value="SKR04">SKR 04</option>
          </select>
        </label>
        <label>
          {t('accounting.settings.debtorAccount')}
          <input name="debtorAccount" inputMode="numeric" value={v.debtorAccount ?? ''} onInput={(e) => setV({ ...v, debtorAccount: (e.target as HTMLInputElement).value })} />
          {errors.debtorAccount && <small class="field-error">{fieldMessage(errors.debtorAccount)}</small>}
        </label>
        <fieldset class="accounting-rates">
          <legend>{t('accounting.settings.revenueAccounts')}</legend>
          {rows.map((r, i) => (
            <div class="accounting-rate" key={i}>
              <label>
                {t('accounting.settings.rate')}
                <input name={`rate-${i}`} inputMode="decimal" value={r.rate} onInput={(e) => setRow(i, 'rate', (e.target as HTMLInputElement).value)} />
              </label>
              <label>
                {t('accounting.settings.account')}
                <input name={`account-${i}`} inputMode="numeric" value={r.account} onInput={(e) => setRow(i, 'account', (e.target as HTMLInputElement).value)} />
              </label>
              <label>
                {t('accounting.settings.buKey')}
                <input name={`buKey-${i}`} inputMode="numeric" value={r.buKey} onInput={(e) => setRow(i, 'buKey', (e.target as HTMLInputElement).value)} />
              </label>
              <Button variant="ghost" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                {t('accounting.settings.removeRate')}
              </Button>
            </div>
          ))}
          {Object.keys(errors).some((k) => k.startsWith('revenueAccounts')) && <small class="field-error">{fieldMessage(Object.entries(errors).find(([k]) => k.startsWith('revenueAccounts'))![1])}</small>}
          <Button variant="ghost" onClick={() => setRows([...rows, { rate: '', account: '', buKey: '' }])}>
            {t('accounting.settings.addRate')}
          </Button>
        </fieldset>
        <div class="tickets-form-actions">
          <Button type="submit">{t('accounting.settings.save')}</Button>
        </div>
      </form>
    </Card>
  )
}
