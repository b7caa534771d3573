// /pay/{id}: the ticket order payment page (guest-side.md §2, §4, §5; docs/ticketing.md). No menus,
// phone first. Every step of the §4 table with its display number, edit links where going back is
// allowed, processing polled every 5000 ms, the cancelled/expired/refunded/failed notices with
// continue-and-reset, return-hash banners and the imprint/privacy footer.
import '../../i18n/part-pay'
import { useEffect, useState } from 'preact/hooks'
import { useRoute } from 'wouter'
import { formatMoney } from '../../../server/i18n/format'
import { ApiError, errorText, get, post } from '../../api/client'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { fieldMessage, t, useLanguage } from '../../i18n'
import { OnlinePay, type OnlineInfo } from './online'

interface Line {
  amount: number
  displayName: string
  grossPrice: number
  unitPrice: number
  discount: number
  taxCode: string
  /** the seats of this line (seating plan): "A 1, A 2" */
  chairInfo?: string | null
}
interface Method {
  id: number
  method: string
  confirmationText: string | null
  accountHolder: string | null
  iban: string | null
  bic: string | null
  bank: string | null
}
interface Address {
  receiver: string
  addition?: string | null
  street: string
  streetNumber: string
  postCode: string
  city: string
  country: string
}
interface Info {
  ticketOrder: {
    number: string
    step: number
    displayStep: number | null
    status: string
    grossPrice: number
    currency: string
    tax: number
    discount: number
    taxPrices: Array<{ taxCode: string; taxValue: number; totalPrice: number }>
    visitorTickets: Line[]
    usedCoupons: Array<{ code: string }>
    invoiceAddress: Address | null
    referenceNumber: string | null
    paymentMethod: string | null
    fullName: string | null
    invoiceAddressDisabled: boolean
    editableSteps: number[]
    transferReference: string | null
  }
  event: { id: number; displayName: string; registrationButtonType: string; primaryColor: string | null }
  paymentMethods: Method[]
  qrCode: string | null
  requiredActions: string[]
  /** REQUIRE_FIELDS: required fields of the registration still empty, asked for on step 5 */
  missingFields: Array<{ defaultField: string | null; fieldId: number; field: string; displayName: string; type: string }>
  escortPersons: Array<{ firstName: string; lastName: string }>
  visitor: { visitorCount: number } | null
  useInvoiceXML: boolean
  requireReferenceId: boolean
  imprintUrl: string | null
  privacyUrl: string | null
  stripePayment: OnlineInfo['stripePayment']
  paymentScripts?: OnlineInfo['paymentScripts']
}

const money = (cents: number, currency: string) => `${formatMoney(cents)} ${currency === 'CHF' ? 'CHF' : '€'}`
const POLL_MS = 5000
const USER_STEP = [1, 5, 8, 10, 40]

function useBanner() {
  const [hash] = useState(() => location.hash.replace('#', ''))
  return ['success', 'canceled', 'error'].includes(hash) ? hash : null
}

export default function PayApp() {
  useLanguage()
  const [, params] = useRoute('/pay/:id')
  const id = params?.id ?? ''
  const [info, setInfo] = useState<Info | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [qrCode, setQrCode] = useState<string | null>(null)
  const banner = useBanner()
  const base = `/proxy/api/guest/ticketOrder/${id}`
  const load = () =>
    get<Info>(base)
      .then((i) => (setInfo(i), setError(null)))
      .catch((e) => setError(e instanceof ApiError && e.status === 404 ? t('errors.NOT_FOUND') : errorText(e)))
  useEffect(() => {
    if (id) void load()
  }, [id])
  const step = info?.ticketOrder.step
  // back from Stripe (3-D Secure, redirects: #success) or the Mollie checkout (#mollie): ask the
  // server to look at the payment now instead of waiting for the webhook
  const [returned, setReturned] = useState(false)
  useEffect(() => {
    const m = info?.ticketOrder.paymentMethod
    if (returned || step == null || ![70, 80, 90].includes(step) || (m !== 'STRIPE' && m !== 'MOLLIE')) return
    if (!['#success', '#mollie'].includes(location.hash)) return
    setReturned(true)
    void post(`${base}/${m.toLowerCase()}/success`, {})
      .then(() => load())
      .catch(() => {})
  }, [step])
  // processing: poll the order state until the step leaves it
  useEffect(() => {
    if (step == null || ![70, 80, 90].includes(step)) return
    const timer = setInterval(async () => {
      const s = await get<{ step: number }>(`${base}/orderState`).catch(() => null)
      if (s && s.step !== step) void load()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [step])

  /** A proceed call: on success show the new step; a stale step (409) reloads to the current one. */
  const proceed = async (path: string, body: unknown): Promise<ApiError | null> => {
    setError(null)
    setNotice(null)
    try {
      const r = await post<{ step: number; qrCode?: string | null }>(`${base}/${path}`, body)
      if (r.qrCode) setQrCode(r.qrCode)
      await load()
      window.scrollTo(0, 0)
      return null
    } catch (e) {
      if (e instanceof ApiError && (e.errorType === 'ORDER_STEP_CHANGED' || e.errorType === 'ORDER_NOT_PAYABLE')) {
        await load()
        return null
      }
      if (!(e instanceof ApiError && e.errorType === 'FIELD_ERROR')) setError(errorText(e))
      return e instanceof ApiError ? e : null
    }
  }
  const reset = async () => {
    try {
      await get(`${base}/reset`)
      setNotice(t('ticketing.reset.done'))
      await load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  if (!info) return <PayShell>{error ? <Alert tone="error">{error}</Alert> : <Spinner />}</PayShell>
  const o = info.ticketOrder
  return (
    <PayShell info={info}>
      {banner && <Alert tone={banner === 'success' ? 'ok' : banner === 'error' ? 'error' : 'warn'}>{t(`ticketing.pay.banner.${banner}`)}</Alert>}
      {notice && (
        <Alert tone="ok" role="status">
          {notice}
        </Alert>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {o.displayStep != null && USER_STEP.includes(o.step) && (
        <p class="pay-progress" aria-live="polite">
          {t('ticketing.pay.stepOf', { n: o.displayStep, of: o.grossPrice === 0 ? 2 : 3 })} · {t(`ticketing.step.${o.step}`)}
        </p>
      )}
      <StepBody
        info={info}
        qrCode={qrCode}
        proceed={proceed}
        reset={reset}
        online={{
          base,
          done: async (msg) => {
            await load()
            if (msg) setError(msg)
            window.scrollTo(0, 0)
          },
        }}
      />
      <Summary info={info} />
    </PayShell>
  )
}

function PayShell({ info, children }: { info?: Info; children: preact.ComponentChildren }) {
  return (
    <div class="pay-page">
      <header class="pay-header" style={info?.event.primaryColor ? { borderTopColor: info.event.primaryColor } : undefined}>
        {info && <p class="muted">{t('ticketing.pay.title')}</p>}
        <h1>{info ? info.event.displayName : t('ticketing.pay.title')}</h1>
        {info && <p class="muted">{t('ticketing.pay.orderNumber', { number: info.ticketOrder.number })}</p>}
      </header>
      <main class="pay-main" id="main">
        {children}
      </main>
      {info && (info.imprintUrl || info.privacyUrl) && (
        <footer class="pay-footer">
          {info.imprintUrl && (
            <a href={info.imprintUrl} target="_blank" rel="noopener noreferrer">
              {t('ticketing.pay.imprint')}
            </a>
          )}
          {info.privacyUrl && (
            <a href={info.privacyUrl} target="_blank" rel="noopener noreferrer">
              {t('ticketing.pay.privacy')}
            </a>
          )}
        </footer>
      )}
    </div>
  )
}

type Proceed = (path: string, body: unknown) => Promise<ApiError | null>

interface Online {
  base: string
  done(error?: string | null): Promise<void>
}

function StepBody({ info, qrCode, proceed, reset, online }: { info: Info; qrCode: string | null; proceed: Proceed; reset(): void; online: Online }) {
  const o = info.ticketOrder
  if (o.status === 'WAITING_LIST') return <Alert tone="info">{t(info.event.registrationButtonType === 'SEND' ? 'ticketing.pay.waitingList' : 'ticketing.pay.waitingListRequest')}</Alert>
  if (o.status === 'REQUIRE_APPROVAL') return <Alert tone="info">{t('ticketing.pay.requireApproval')}</Alert>
  if (o.step === 902 || o.status === 'REFUNDED') return <Alert tone="warn">{t('ticketing.pay.refunded')}</Alert>
  if ([900, 901, 910].includes(o.step)) {
    const key = o.step === 901 ? 'expired' : o.step === 910 ? 'failed' : 'canceled'
    return (
      <Card class="pay-notice">
        <Alert tone={o.step === 910 ? 'error' : 'warn'}>{t(`ticketing.pay.${key}`)}</Alert>
        {o.step !== 900 && <Button onClick={reset}>{t('ticketing.pay.continue')}</Button>}
      </Card>
    )
  }
  if (o.status === 'DELETED' || o.status === 'CANCELED') return <Alert tone="warn">{t('ticketing.pay.canceled')}</Alert>
  switch (o.step) {
    case 1:
      return <InvoiceAddressStep info={info} proceed={proceed} />
    case 5:
      return <AdditionalStep info={info} proceed={proceed} />
    case 8:
    case 40:
      // a field made required meanwhile: the payment waits until it is filled in on step 5
      if (info.missingFields.length) return <MissingNotice info={info} proceed={proceed} />
      return o.step === 8 ? <MethodStep info={info} proceed={proceed} /> : <ConfirmStep info={info} proceed={proceed} online={online} />
    case 70:
    case 80:
      return <Spinner label={t('ticketing.pay.processing')} />
    case 90:
      return (
        <Card class="pay-notice">
          <Spinner label={t(o.paymentMethod === 'MOLLIE' ? 'ticketing.pay.waitMollie' : 'ticketing.pay.wait')} />
          <Button variant="secondary" onClick={() => confirm(t('ticketing.pay.resetConfirm')) && reset()}>
            {t('ticketing.pay.resetPayment')}
          </Button>
        </Card>
      )
    case 100:
      return <Finished info={info} qrCode={qrCode} />
    default:
      return <Spinner />
  }
}

function Field(p: { name: string; label: string; value: string; onInput(v: string): void; error?: string; required?: boolean; hint?: string; autoComplete?: string; half?: boolean; options?: readonly string[] }) {
  const id = `pay-${p.name}`
  const described = { 'aria-invalid': !!p.error, 'aria-describedby': p.error ? `${id}-error` : undefined }
  return (
    <div class={`pay-field ${p.half ? 'is-half' : ''} ${p.error ? 'has-error' : ''}`}>
      <label for={id}>
        {p.label}
        {p.required && ' *'}
      </label>
      {p.options ? (
        <select id={id} name={p.name} value={p.value} {...described} onChange={(e) => p.onInput((e.target as HTMLSelectElement).value)}>
          <option value="">–</option>
          {p.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={p.name} value={p.value} autoComplete={p.autoComplete} {...described} onInput={(e) => p.onInput((e.target as HTMLInputElement).value)} />
      )}
      {p.hint && <small class="muted">{p.hint}</small>}
      {p.error && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {fieldMessage(p.error)}
        </small>
      )}
    </div>
  )
}

const errorsOf = (e: ApiError | null) => Object.fromEntries((e?.errorFields ?? []).map((f) => [f.field.replace(/^invoiceAddress\./, ''), f.errorType]))

function InvoiceAddressStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const a = info.ticketOrder.invoiceAddress
  const [v, setV] = useState<Record<string, string>>({
    receiver: a?.receiver ?? info.ticketOrder.fullName ?? '',
    addition: a?.addition ?? '',
    street: a?.street ?? '',
    streetNumber: a?.streetNumber ?? '',
    postCode: a?.postCode ?? '',
    city: a?.city ?? '',
    country: a?.country ?? 'DEU',
    taxIdentificationNumber: '',
    referenceNumber: info.ticketOrder.referenceNumber ?? '',
    additionalInvoiceText: '',
    invoiceReceiver: '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const f = (name: string, label: string, o: Partial<Parameters<typeof Field>[0]> = {}) => <Field name={name} label={label} value={v[name]} onInput={(x) => setV({ ...v, [name]: x })} error={errors[name]} {...o} />
  const submit = async (ev: Event) => {
    ev.preventDefault()
    setBusy(true)
    const e = await proceed('proceed/invoiceAddress', {
      invoiceAddress: { receiver: v.receiver, addition: v.addition || null, street: v.street, streetNumber: v.streetNumber, postCode: v.postCode, city: v.city, country: v.country || 'DEU' },
      ...(info.useInvoiceXML ? { taxIdentificationNumber: v.taxIdentificationNumber || null, referenceNumber: v.referenceNumber || null, additionalInvoiceText: v.additionalInvoiceText || null, invoiceReceiver: v.invoiceReceiver || null } : {}),
    })
    setErrors(errorsOf(e))
    setBusy(false)
  }
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.1')}</h2>
      {Object.keys(errors).length > 0 && <Alert tone="error">{t('ticketing.pay.addressError')}</Alert>}
      <form class="pay-form" onSubmit={submit} noValidate>
        {f('receiver', t('ticketing.pay.receiver'), { required: true, autoComplete: 'name' })}
        {f('addition', t('ticketing.pay.addition'), { autoComplete: 'organization' })}
        {f('street', t('ticketing.pay.street'), { required: true, autoComplete: 'address-line1' })}
        {f('streetNumber', t('ticketing.pay.streetNumber'), { required: true, half: true })}
        {f('postCode', t('ticketing.pay.postCode'), { required: true, half: true, autoComplete: 'postal-code' })}
        {f('city', t('ticketing.pay.city'), { required: true, autoComplete: 'address-level2' })}
        {f('country', t('ticketing.pay.country'), { required: true, hint: t('ticketing.pay.countryHint') })}
        {info.useInvoiceXML && (
          <>
            {f('referenceNumber', t('ticketing.pay.referenceNumber'), { required: info.requireReferenceId, hint: 'XXX-XXXXXXXXXX-XX' })}
            {f('taxIdentificationNumber', t('ticketing.pay.taxId'))}
            {f('invoiceReceiver', t('ticketing.pay.invoiceReceiver'))}
            {f('additionalInvoiceText', t('ticketing.pay.additionalText'))}
          </>
        )}
        <div class="pay-actions">
          <Button type="submit" busy={busy}>
            {t('ticketing.pay.next')}
          </Button>
        </div>
      </form>
    </Card>
  )
}

const SALUTATIONS = ['Herr', 'Frau', 'Divers'] as const

function AdditionalStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const want = Math.max(0, (info.visitor?.visitorCount ?? 1) - 1)
  const [list, setList] = useState(() => Array.from({ length: want }, (_, i) => ({ firstName: info.escortPersons[i]?.firstName ?? '', lastName: info.escortPersons[i]?.lastName ?? '' })))
  const [fieldData, setFieldData] = useState<Record<string, string>>(() => Object.fromEntries(info.missingFields.map((m) => [m.field, ''])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const missing = [
    ...info.missingFields.filter((m) => !fieldData[m.field]?.trim()).map((m) => m.displayName),
    ...list.flatMap((e, i) => [...(!e.firstName.trim() ? [t('ticketing.pay.escortFirst', { n: i + 1 })] : []), ...(!e.lastName.trim() ? [t('ticketing.pay.escortLast', { n: i + 1 })] : [])]),
  ]
  const set = (i: number, k: 'firstName' | 'lastName', x: string) => setList(list.map((e, j) => (j === i ? { ...e, [k]: x } : e)))
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.5')}</h2>
      {info.missingFields.length > 0 && (
        <div class="pay-form">
          {info.missingFields.map((m) => (
            <Field
              key={m.field}
              name={m.field}
              label={m.displayName}
              value={fieldData[m.field] ?? ''}
              onInput={(x) => setFieldData({ ...fieldData, [m.field]: x })}
              options={m.type === 'SALUTATION' ? SALUTATIONS : undefined}
              required
              error={errors[m.field]}
            />
          ))}
        </div>
      )}
      {want > 0 && <p>{t('ticketing.pay.escortIntro', { n: want })}</p>}
      {list.map((e, i) => (
        <fieldset class="pay-escort" key={i}>
          <legend>{t('ticketing.pay.escort', { n: i + 1 })}</legend>
          <Field name={`e${i}f`} label={t('ticketing.pay.firstName')} value={e.firstName} onInput={(x) => set(i, 'firstName', x)} required half error={errors[`escortPersons.${i}.firstName`]} />
          <Field name={`e${i}l`} label={t('ticketing.pay.lastName')} value={e.lastName} onInput={(x) => set(i, 'lastName', x)} required half error={errors[`escortPersons.${i}.lastName`]} />
        </fieldset>
      ))}
      {missing.length > 0 ? (
        <div class="pay-missing" role="status">
          <p>{t('ticketing.pay.missingIntro')}</p>
          <ul>
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : (
        <div class="pay-actions">
          <Button onClick={async () => setErrors(Object.fromEntries(((await proceed('proceed/additionalInformations', { escortPersons: list, fieldData }))?.errorFields ?? []).map((f) => [f.field, f.errorType])))}>
            {t('ticketing.pay.next')}
          </Button>
        </div>
      )}
    </Card>
  )
}

/** Later steps while required fields are missing: the list, and the way back to step 5 instead of continue. */
function MissingNotice({ info, proceed }: { info: Info; proceed: Proceed }) {
  return (
    <Card class="pay-step">
      <div class="pay-missing" role="status">
        <p>{t('ticketing.pay.missingIntro')}</p>
        <ul>
          {info.missingFields.map((m) => (
            <li key={m.field}>{m.displayName}</li>
          ))}
        </ul>
      </div>
      <div class="pay-actions">
        <Button onClick={() => proceed('proceed/reset', { step: 5 })}>{t('ticketing.pay.completeFields')}</Button>
      </div>
    </Card>
  )
}

function MethodStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const [chosen, setChosen] = useState<string | null>(info.ticketOrder.paymentMethod ?? (info.paymentMethods.length === 1 ? info.paymentMethods[0].method : null))
  const [busy, setBusy] = useState(false)
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.8')}</h2>
      <div class="pay-methods" role="radiogroup" aria-label={t('ticketing.step.8')}>
        {info.paymentMethods.map((m) => (
          <label key={m.id} class={`pay-method ${chosen === m.method ? 'is-chosen' : ''}`}>
            <input type="radio" name="paymentMethod" value={m.method} checked={chosen === m.method} onChange={() => setChosen(m.method)} />
            <span>{t(`ticketing.method.${m.method}`)}</span>
          </label>
        ))}
      </div>
      <div class="pay-actions">
        <Button
          busy={busy}
          disabled={!chosen}
          onClick={async () => {
            setBusy(true)
            await proceed('proceed/paymentSelection', { paymentMethod: chosen })
            setBusy(false)
          }}
        >
          {t('ticketing.pay.next')}
        </Button>
      </div>
    </Card>
  )
}

function EditLink({ info, step, proceed }: { info: Info; step: number; proceed: Proceed }) {
  if (!info.ticketOrder.editableSteps.includes(step)) return null
  return (
    <button type="button" class="pay-edit" onClick={() => void proceed('proceed/reset', { step })}>
      {t('ticketing.pay.edit')}
    </button>
  )
}

const ONLINE_METHODS = ['STRIPE', 'PAYPAL', 'MOLLIE']

function ConfirmStep({ info, proceed, online }: { info: Info; proceed: Proceed; online: Online }) {
  const o = info.ticketOrder
  const a = o.invoiceAddress
  const [busy, setBusy] = useState(false)
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.40')}</h2>
      {a && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.1')} <EditLink info={info} step={1} proceed={proceed} />
          </h3>
          <p>
            {a.receiver}
            {a.addition ? `, ${a.addition}` : ''}
            <br />
            {a.street} {a.streetNumber}
            <br />
            {a.postCode} {a.city}, {a.country}
          </p>
        </section>
      )}
      {info.escortPersons.length > 0 && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.5')} <EditLink info={info} step={5} proceed={proceed} />
          </h3>
          <p>{info.escortPersons.map((e) => `${e.firstName} ${e.lastName}`).join(', ')}</p>
        </section>
      )}
      {o.grossPrice > 0 && o.paymentMethod && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.8')} <EditLink info={info} step={8} proceed={proceed} />
          </h3>
          <p>{t(`ticketing.method.${o.paymentMethod}`)}</p>
        </section>
      )}
      {o.grossPrice > 0 && ONLINE_METHODS.includes(o.paymentMethod ?? '') ? (
        <OnlinePay info={info} base={online.base} done={online.done} />
      ) : (
      <div class="pay-actions">
        <Button
          busy={busy}
          onClick={async () => {
            setBusy(true)
            await proceed('proceed/paymentPay', { paymentMethod: o.grossPrice === 0 ? 'COUPON' : o.paymentMethod })
            setBusy(false)
          }}
        >
          {o.grossPrice === 0 ? t('ticketing.pay.confirmFree') : t('ticketing.pay.confirm', { total: money(o.grossPrice, o.currency) })}
        </Button>
      </div>
      )}
    </Card>
  )
}

function Finished({ info, qrCode: fresh }: { info: Info; qrCode: string | null }) {
  const o = info.ticketOrder
  const qrCode = fresh ?? info.qrCode
  const m = info.paymentMethods.find((x) => x.method === o.paymentMethod)
  const transfer = o.paymentMethod === 'TRANSFER' && o.status === 'OPEN'
  return (
    <Card class="pay-step pay-finished">
      <h2>{o.status === 'PAID' ? t('ticketing.pay.paid') : t('ticketing.pay.thanks')}</h2>
      {transfer && m && (
        <>
          <p>{t('ticketing.pay.transferIntro', { total: money(o.grossPrice, o.currency) })}</p>
          <dl class="pay-bank">
            <dt>{t('ticketing.pay.accountHolder')}</dt>
            <dd>{m.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{m.iban?.replace(/(.{4})/g, '$1 ').trim()}</dd>
            <dt>BIC</dt>
            <dd>{m.bic}</dd>
            {m.bank && (
              <>
                <dt>{t('ticketing.pay.bank')}</dt>
                <dd>{m.bank}</dd>
              </>
            )}
            <dt>{t('ticketing.pay.reference')}</dt>
            <dd>
              <strong>{o.transferReference}</strong>
            </dd>
            <dt>{t('ticketing.pay.amount')}</dt>
            <dd>{money(o.grossPrice, o.currency)}</dd>
          </dl>
          {qrCode ? (
            <figure class="pay-girocode">
              <img src={qrCode} alt={t('ticketing.pay.girocodeAlt')} width={240} height={240} />
              <figcaption>{t('ticketing.pay.girocode')}</figcaption>
            </figure>
          ) : (
            <p class="muted">{t('ticketing.pay.girocodeMail')}</p>
          )}
        </>
      )}
      {o.paymentMethod === 'INVOICE' && o.status === 'CONFIRMED' && <p>{t('ticketing.pay.invoiceDone')}</p>}
      {o.paymentMethod === 'LOCATION' && o.status === 'CONFIRMED' && <p>{t('ticketing.pay.locationDone', { total: money(o.grossPrice, o.currency) })}</p>}
      {m?.confirmationText && <p>{m.confirmationText}</p>}
      <p class="muted">{t('ticketing.pay.mailSent')}</p>
    </Card>
  )
}

function Summary({ info }: { info: Info }) {
  const o = info.ticketOrder
  return (
    <Card class="pay-summary">
      <h2>{t('ticketing.pay.summary')}</h2>
      <table>
        <tbody>
          {o.visitorTickets.map((l, i) => (
            <tr key={i}>
              <td>
                {l.amount} × {l.displayName}
                {l.chairInfo && <small class="pay-seats">{t('ticketing.pay.seats', { labels: l.chairInfo })}</small>}
              </td>
              <td class="num">{money(l.amount * l.unitPrice, o.currency)}</td>
            </tr>
          ))}
          {o.discount > 0 && (
            <tr>
              <td>{t('ticketing.pay.coupon', { code: o.usedCoupons.map((c) => c.code).join(', ') })}</td>
              <td class="num">−{money(o.discount, o.currency)}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr class="pay-total">
            <th scope="row">{t('ticketing.pay.total')}</th>
            <td class="num">{money(o.grossPrice, o.currency)}</td>
          </tr>
          {o.taxPrices.map((tp) => (
            <tr key={tp.taxCode} class="muted">
              <td>{t('ticketing.pay.taxIncluded', { rate: String(tp.taxValue).replace('.', ',') })}</td>
              <td class="num">{money(tp.totalPrice, o.currency)}</td>
            </tr>
          ))}
        </tfoot>
      </table>
    </Card>
  )
}
