// /agency/sales (AGENCY.MANAGE): the agency's seller and invoice data and its payment methods
// (docs/ticketing.md, "Payment methods", "Seller settings"). Events enable methods on their Tickets tab.
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, post, put, del } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { CountrySelect } from '../../../components/country-select'
import { Alert, Button, Card, PageHeader, Spinner } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'
import { setMoneyPrefix } from './money'
import { AccountingSettingsCard } from './accounting-settings'

interface Seller {
  name: string | null
  street: string | null
  streetNumber: string | null
  postCode: string | null
  city: string | null
  country: string
  vatId: string | null
  taxNumber: string | null
  contactName: string | null
  phone: string | null
  email: string | null
  invoiceNumberPrefix: string | null
  useInvoiceXML: boolean
  requireReferenceId: boolean
  paymentTermsDays: number
  currencyPrefix: boolean
  imprintUrl: string | null
  privacyUrl: string | null
}
interface Method {
  id: number
  method: string
  currency: string
  accountHolder: string | null
  iban: string | null
  bic: string | null
  bank: string | null
  transferReferencePrefix: string | null
  confirmationText: string | null
  testMode?: boolean | null
  hasSecretKey?: boolean | null
  publicKey?: string | null
  accountId?: string | null
  payPalClientId?: string | null
  payPalTestMode?: boolean | null
  disabledFundings?: string[] | null
}

/** PayPal's webhook id is known only after the webhook was created at PayPal with this method's address. */
function PayPalWebhook({ m }: { m: Method }) {
  const [id, setId] = useState('')
  const save = async (e: Event) => {
    e.preventDefault()
    try {
      await put(`/proxy/api/agency/paymentMethods/${m.id}`, { method: 'PAYPAL', currency: m.currency, publicKey: m.payPalClientId, testMode: m.payPalTestMode ?? true, disabledFundings: m.disabledFundings ?? [], confirmationText: m.confirmationText, webhookId: id })
      setId('')
      toast(t('payments.admin.webhookIdSaved'))
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  return (
    <form class="webhook-id-form" onSubmit={save} noValidate>
      <small class="muted break">{t('payments.admin.payPalWebhook', { url: `${location.origin}/proxy/api/payments/paypal/webhook/${m.id}` })}</small>
      <label>
        {t('payments.admin.webhookId')}
        <input value={id} maxLength={100} placeholder="WH-…" onInput={(e) => setId((e.target as HTMLInputElement).value)} />
      </label>
      <Button type="submit" variant="ghost" disabled={!id.trim()}>
        {t('payments.admin.saveWebhookId')}
      </Button>
    </form>
  )
}

const TEXT_FIELDS = ['name', 'street', 'streetNumber', 'postCode', 'city', 'vatId', 'taxNumber', 'contactName', 'phone', 'email', 'invoiceNumberPrefix', 'imprintUrl', 'privacyUrl'] as const

export function SalesSettingsPage() {
  return (
    <>
      <PageHeader title={t('ticketing.sales.title')} subtitle={t('ticketing.sales.subtitle')} />
      <div class="tickets-tab">
        <SellerCard />
        <MethodsCard />
        <AccountingSettingsCard />
      </div>
    </>
  )
}

function SellerCard() {
  const [v, setV] = useState<Seller | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  useEffect(() => {
    void get<Seller>('/proxy/api/agency/sellerSettings').then(setV)
  }, [])
  if (!v) return <Spinner />
  const save = async (e: Event) => {
    e.preventDefault()
    try {
      setV(await put<Seller>('/proxy/api/agency/sellerSettings', v))
      setMoneyPrefix(v.currencyPrefix)
      setErrors({})
      toast(t('ticketing.sales.saved'))
    } catch (err) {
      const f = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (f.length) setErrors(Object.fromEntries(f.map((x) => [x.field, x.errorType])))
      else toast(errorText(err), 'error')
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.sales.seller')}</h2>
      <form class="tickets-form" onSubmit={save} noValidate>
        {TEXT_FIELDS.map((k) => (
          <label key={k}>
            {t(`ticketing.sales.${k}`)}
            <input value={v[k] ?? ''} onInput={(e) => setV({ ...v, [k]: (e.target as HTMLInputElement).value })} />
            {errors[k] && <small class="field-error">{fieldMessage(errors[k])}</small>}
          </label>
        ))}
        <p class="muted tickets-form-note">{t('sales.legalShared')}</p>
        <label>
          <span id="seller-country-label">{t('ticketing.sales.country')}</span>
          <CountrySelect id="seller-country" name="country" labelledBy="seller-country-label" value={v.country} onChange={(country) => setV({ ...v, country })} invalid={!!errors.country} />
          {errors.country && <small class="field-error">{fieldMessage(errors.country)}</small>}
        </label>
        <label>
          {t('ticketing.sales.paymentTermsDays')}
          <input inputMode="numeric" value={String(v.paymentTermsDays)} onInput={(e) => setV({ ...v, paymentTermsDays: Number((e.target as HTMLInputElement).value) || 0 })} />
        </label>
        <label class="tickets-check">
          <input type="checkbox" name="currencyPrefix" checked={v.currencyPrefix} onChange={() => setV({ ...v, currencyPrefix: !v.currencyPrefix })} /> {t('ticketing.sales.currencyPrefix')}
        </label>
        <label class="tickets-check">
          <input type="checkbox" checked={v.useInvoiceXML} onChange={() => setV({ ...v, useInvoiceXML: !v.useInvoiceXML })} /> {t('ticketing.sales.useInvoiceXML')}
        </label>
        <label class="tickets-check">
          <input type="checkbox" checked={v.requireReferenceId} onChange={() => setV({ ...v, requireReferenceId: !v.requireReferenceId })} /> {t('ticketing.sales.requireReferenceId')}
        </label>
        <div class="tickets-form-actions">
          <Button type="submit">{t('ticketing.sales.save')}</Button>
        </div>
      </form>
    </Card>
  )
}

function MethodsCard() {
  const res = useResource<Method[]>('/proxy/api/agency/paymentMethods')
  const blank = { method: 'TRANSFER', currency: 'EURO', accountHolder: '', iban: '', bic: '', bank: '', transferReferencePrefix: '', confirmationText: '', publicKey: '', secretKey: '', webhookSecret: '', webhookId: '', accountId: '' }
  const [sandbox, setSandbox] = useState(true)
  const [f, setF] = useState(blank)
  const [errors, setErrors] = useState<Record<string, string>>({})
  // the method being edited (PUT; its secrets stay when their fields are left empty), or null: a new one
  const [editing, setEditing] = useState<Method | null>(null)
  // a refusal of the provider (made-up keys) or its absence, said above the button
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!res.data) return <Spinner />
  const startEdit = (m: Method) => {
    setEditing(m)
    setErrors({})
    setProblem(null)
    setSandbox(m.payPalTestMode ?? true)
    setF({
      ...blank,
      method: m.method,
      currency: m.currency,
      accountHolder: m.accountHolder ?? '',
      iban: m.iban ?? '',
      bic: m.bic ?? '',
      bank: m.bank ?? '',
      transferReferencePrefix: m.transferReferencePrefix ?? '',
      confirmationText: m.confirmationText ?? '',
      publicKey: m.publicKey ?? m.payPalClientId ?? '',
      accountId: m.accountId ?? '',
    })
  }
  const stopEdit = () => {
    setEditing(null)
    setF(blank)
    setErrors({})
    setProblem(null)
  }
  const add = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setProblem(null)
    try {
      // empty secrets are not sent: the server keeps the stored ones
      const body = { ...f, testMode: sandbox, disabledFundings: editing?.disabledFundings ?? undefined, secretKey: f.secretKey || null, webhookSecret: f.webhookSecret || null, webhookId: f.webhookId || null }
      if (editing) await put(`/proxy/api/agency/paymentMethods/${editing.id}`, body)
      else await post('/proxy/api/agency/paymentMethods', body)
      stopEdit()
      toast(t(editing ? 'payments.admin.methodSaved' : 'ticketing.sales.methodSaved'))
      await res.reload()
    } catch (err) {
      const list = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (list.length) setErrors(Object.fromEntries(list.map((x) => [x.field, x.errorType])))
      else setErrors({})
      // the provider's refusal names what failed in its own words; field codes alone would not
      if (!list.length || list.some((x) => x.errorType === 'PAYMENT_KEYS_REJECTED')) setProblem(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  const remove = async (m: Method) => {
    await del(`/proxy/api/agency/paymentMethods/${m.id}`).catch((err) => toast(errorText(err), 'error'))
    await res.reload()
  }
  const input = (k: keyof typeof f, label: string, secret = false) => (
    <label>
      {label}
      {secret ? (
        <input type="password" value={String(f[k])} onInput={(e) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })} />
      ) : (
        <input value={String(f[k])} onInput={(e) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })} />
      )}
      {errors[k] && <small class="field-error">{fieldMessage(errors[k])}</small>}
    </label>
  )
  return (
    <Card>
      <h2>{t('ticketing.sales.methods')}</h2>
      <ul class="tickets-list">
        {res.data.map((m) => (
          <li key={m.id}>
            <strong>{t(`ticketing.method.${m.method}`)}</strong> ({m.currency}){m.iban && ` · ${m.accountHolder} · ${m.iban} · ${m.bic}`}{' '}
            {m.testMode != null && <span class={`badge ${m.testMode ? 'badge-warn' : 'badge-ok'}`}>{t(m.testMode ? 'payments.admin.testMode' : 'payments.admin.liveMode')}</span>}{' '}
            {m.method === 'STRIPE' && <small class="muted break">{t('payments.admin.webhook', { url: `${location.origin}/proxy/api/payments/stripe/webhook/${m.id}` })}</small>}
            {m.method === 'PAYPAL' && <PayPalWebhook m={m} />}
            <Button variant="ghost" onClick={() => startEdit(m)} aria-label={`${t('payments.admin.editMethod')}: ${t(`ticketing.method.${m.method}`)} (${m.currency})`}>
              {t('payments.admin.editMethod')}
            </Button>
            <Button variant="ghost" onClick={() => void remove(m)}>
              {t('ticketing.admin.delete')}
            </Button>
          </li>
        ))}
      </ul>
      <form class="tickets-form" onSubmit={add} noValidate>
        {editing && <h3 class="tickets-form-title">{t('payments.admin.editMethodTitle')}: {t(`ticketing.method.${editing.method}`)} ({editing.currency})</h3>}
        <label>
          {t('ticketing.sales.method')}
          <select value={f.method} disabled={!!editing} onChange={(e) => setF({ ...f, method: (e.target as HTMLSelectElement).value })}>
            {['TRANSFER', 'INVOICE', 'LOCATION', 'STRIPE', 'PAYPAL', 'MOLLIE'].map((m) => (
              <option key={m} value={m}>
                {t(`ticketing.method.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ticketing.sales.currency')}
          <select value={f.currency} onChange={(e) => setF({ ...f, currency: (e.target as HTMLSelectElement).value })}>
            <option value="EURO">EURO</option>
            <option value="CHF">CHF</option>
          </select>
        </label>
        {f.method === 'TRANSFER' && (
          <>
            {input('accountHolder', t('ticketing.pay.accountHolder'))}
            {input('iban', 'IBAN')}
            {input('bic', 'BIC')}
            {input('bank', t('ticketing.pay.bank'))}
            {input('transferReferencePrefix', t('ticketing.sales.referencePrefix'))}
          </>
        )}
        {f.method === 'STRIPE' && (
          <>
            {input('publicKey', t('payments.admin.publicKey'))}
            {input('secretKey', t('payments.admin.secretKey'), true)}
            {input('webhookSecret', t('payments.admin.webhookSecret'), true)}
            {input('accountId', t('payments.admin.accountId'))}
          </>
        )}
        {f.method === 'PAYPAL' && (
          <>
            {input('publicKey', t('payments.admin.clientId'))}
            {input('secretKey', t('payments.admin.clientSecret'), true)}
            {input('webhookId', t('payments.admin.webhookId'))}
            <label class="inline-check">
              <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox((e.target as HTMLInputElement).checked)} />
              {t('payments.admin.sandbox')}
            </label>
          </>
        )}
        {f.method === 'MOLLIE' && input('secretKey', t('payments.admin.apiKey'), true)}
        {input('confirmationText', t('ticketing.sales.confirmationText'))}
        {editing?.hasSecretKey && <small class="muted">{t('payments.admin.keepSecret')}</small>}
        {problem && (
          <Alert tone="error" role="alert">
            {problem}
          </Alert>
        )}
        <div class="tickets-form-actions">
          {editing && (
            <Button variant="secondary" onClick={stopEdit}>
              {t('ticketing.admin.cancelEdit')}
            </Button>
          )}
          <Button type="submit" busy={busy}>
            {editing ? t('ticketing.admin.save') : t('ticketing.sales.addMethod')}
          </Button>
        </div>
      </form>
    </Card>
  )
}
