// /pay/{id}: the ticket order payment page (guest-side.md §2, §4, §5; docs/ticketing.md). No menus,
// phone first. Every step of the §4 table with its display number, edit links where going back is
// allowed, processing polled every 5000 ms, the cancelled/expired/refunded/failed notices with
// continue-and-reset, return-hash banners and the imprint/privacy footer.
import '../../i18n/part-pay'
import { useEffect, useState } from 'preact/hooks'
import { useRoute } from 'wouter'
import { ApiError, errorText, get, post } from '../../api/client'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { t, useLanguage } from '../../i18n'
import { PaymentWaiting } from './waiting'
import type { Info, Proceed, Online } from './model'
import { InvoiceAddressStep, AdditionalStep, MissingNotice } from './address-steps'
import { MethodStep, ConfirmStep, Finished, Summary } from './checkout-steps'

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
      return <PaymentWaiting method={o.paymentMethod} reset={reset} />
    case 100:
      return <Finished info={info} qrCode={qrCode} />
    default:
      return <Spinner />
  }
}
