// /pay/{id}: the ticket order payment page (guest-side.md §2, §4, §5; docs/ticketing.md). No menus,
// phone first. Every step of the §4 table with its display number, edit links where going back is
// allowed, processing polled every 5000 ms, the cancelled/expired/refunded/failed notices with
// continue-and-reset, return-hash banners and the imprint/privacy footer.
import '../../i18n/part-pay'
import { useEffect, useRef, useState } from 'preact/hooks'
import { useRoute } from 'wouter'
import { ApiError, errorText, get, post } from '../../api/client'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { t, useLanguage } from '../../i18n'
import { PaymentWaiting } from './waiting'
import { type Info, type Proceed, type Online, endedNotice, holdLeft, setMoneyPrefix } from './model'
import { InvoiceAddressStep, AdditionalStep, MissingNotice } from './address-steps'
import { MethodStep, ConfirmStep, Finished, Summary } from './checkout-steps'

const POLL_MS = 5000
// step 10 (payment data) is never entered: the data is asked on the confirmation (docs/ticketing.md)
const USER_STEP = [1, 5, 8, 40]

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
      .then((i) => (setMoneyPrefix(i.currencyPrefix), setInfo(i), setError(null)))
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
  // the 30-minute hold (docs/ticketing.md): a countdown; once it ran out the page asks until the order shows it
  const holdUntil = info?.ticketOrder.holdUntil ?? null
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!holdUntil) return
    const tick = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(tick)
  }, [holdUntil])
  const holdOver = !!holdUntil && Date.parse(holdUntil) <= now
  // a finished order goes where the organiser's link points (§4), leaving a frame, once it is
  // settled (nothing left to read: a transfer still shows its bank data and offers the link)
  const seen = useRef<number | null>(null)
  useEffect(() => {
    if (!info) return
    const before = seen.current
    seen.current = info.ticketOrder.step
    const o = info.ticketOrder
    if (before != null && before < 100 && o.step === 100 && info.redirectUrl && (o.status === 'PAID' || o.status === 'CONFIRMED')) leaveTo(info.redirectUrl)
  }, [info])
  // processing: poll the order state until the step leaves it
  useEffect(() => {
    if (step == null || (![70, 80, 90].includes(step) && !holdOver)) return
    const timer = setInterval(async () => {
      const s = await get<{ step: number }>(`${base}/orderState`).catch(() => null)
      if (s && s.step !== step) void load()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [step, holdOver])

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
      {o.displayStep != null && (o.displaySteps ?? 0) > 1 && USER_STEP.includes(o.step) && (
        <p class="pay-progress" aria-live="polite">
          {t('ticketing.pay.stepOf', { n: o.displayStep, of: o.displaySteps ?? o.displayStep })} · {t(`ticketing.step.${o.step}`)}
        </p>
      )}
      {holdUntil && o.status === 'OPEN' && USER_STEP.includes(o.step) && (
        <p class={`pay-hold ${holdOver ? 'is-over' : ''}`} role="timer" aria-live="off">
          {holdOver ? t('ticketing.pay.holdOver') : t('ticketing.pay.hold', { time: holdLeft(holdUntil, now) })}
        </p>
      )}
      <StepBody
        info={info}
        qrCode={qrCode}
        proceed={proceed}
        reset={reset}
        reload={load}
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

function StepBody({ info, qrCode, proceed, reset, reload, online }: { info: Info; qrCode: string | null; proceed: Proceed; reset(): void; reload(): void; online: Online }) {
  const o = info.ticketOrder
  const ended = endedNotice(o, info.event.registrationButtonType)
  if (ended)
    return (
      <Card class="pay-notice">
        <Alert tone={ended.tone}>{t(ended.key)}</Alert>
        {o.canContinue && <Button onClick={reset}>{t('ticketing.pay.continue')}</Button>}
      </Card>
    )
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
      return <Finished info={info} qrCode={qrCode} proceed={proceed} />
    default:
      // a step this page has no screen for (none is written: step 10 is never entered): say so, never spin forever
      return (
        <Card class="pay-notice">
          <Alert tone="warn">{t('ticketing.pay.unknownStep')}</Alert>
          <Button variant="secondary" onClick={reload}>
            {t('ticketing.pay.reload')}
          </Button>
        </Card>
      )
  }
}

/** Goes to an address in the top window: the pay page may run inside the organiser's frame (§4 "leaving a frame if needed"). */
export function leaveTo(url: string) {
  try {
    if (window.top && window.top !== window) {
      window.top.location.href = url
      return
    }
  } catch {
    // a cross-origin parent that refuses: this window goes instead
  }
  location.assign(url)
}
