// The online payment methods on the pay page's confirmation (docs/payments.md, guest-side.md §4,
// §5, §8, §9). Provider scripts come from addresses the server names (settings) and load only for
// their method, with a retry every 500 ms up to 3 times. Stripe: the Payment Element in deferred
// intent mode, mounted 100 ms after the script, the full name checked (§5), element errors beside
// the form block payment; paymentPay creates the PaymentIntent, then the page confirms it.
// The confirmation step shows these only once the buyer accepted the event's terms (if any), so every
// start of a payment here says acceptTerms (docs/ticketing.md, "Selling rules").
// PayPal: the JS SDK buttons (createOrder = paypal/init, onApprove = paymentPay). Mollie: a button
// to the checkout page.
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, errorText, get, post } from '../../api/client'
import { Alert, Button } from '../../components/ui'
import { t } from '../../i18n'
import { money } from './money'

export interface OnlineInfo {
  ticketOrder: { grossPrice: number; currency: string; paymentMethod: string | null; fullName: string | null }
  paymentMethods: Array<{ method: string; paymentTypes?: string[] | null; payPalClientId?: string | null; disabledFundings?: string[] | null }>
  stripePayment: { publicKey: string; accountId: string | null; clientSecret: string | null; successUrl: string } | null
  paymentScripts?: { stripe: string; paypal: string }
}

const loaded = new Map<string, Promise<void>>()
/** Loads a provider script once; retries every 500 ms up to 3 times (§9). */
export function loadScript(src: string): Promise<void> {
  const have = loaded.get(src)
  if (have) return have
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const s = document.createElement('script')
      s.src = src
      s.async = true
      s.onload = () => resolve()
      s.onerror = () => (s.remove(), reject(new Error('script')))
      document.head.appendChild(s)
    })
  const p = (async () => {
    for (let i = 0; ; i++) {
      try {
        return await once()
      } catch (e) {
        if (i >= 3) throw e
        await new Promise((r) => setTimeout(r, 500))
      }
    }
  })()
  loaded.set(src, p)
  p.catch(() => loaded.delete(src))
  return p
}

/** §8: the card-number message for incomplete_number, else Stripe's message with its code. */
export function stripeMessage(e: { code?: string; message?: string } | null | undefined): string {
  if (!e) return t('payments.pay.failed', { code: '–' })
  if (e.code === 'incomplete_number' || e.code === 'invalid_number') return t('payments.pay.cardNumber')
  if (e.message) return e.code ? `${e.message} (${e.code})` : e.message
  return t('payments.pay.failed', { code: e.code ?? '–' })
}

type Done = (error?: string | null) => Promise<void>

export function OnlinePay({ info, base, done }: { info: OnlineInfo; base: string; done: Done }) {
  const m = info.ticketOrder.paymentMethod
  if (m === 'STRIPE') return <StripePay info={info} base={base} done={done} />
  if (m === 'PAYPAL') return <PayPalPay info={info} base={base} done={done} />
  if (m === 'MOLLIE') return <MolliePay base={base} done={done} />
  return null
}

function StripePay({ info, base, done }: { info: OnlineInfo; base: string; done: Done }) {
  const o = info.ticketOrder
  const box = useRef<HTMLDivElement>(null)
  const api = useRef<{ stripe: any; elements: any } | null>(null)
  const [name, setName] = useState(o.fullName ?? '')
  const [nameError, setNameError] = useState<string | null>(null)
  const [elementError, setElementError] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)
  const sp = info.stripePayment
  const types = info.paymentMethods.find((x) => x.method === 'STRIPE')?.paymentTypes ?? ['CARD']
  useEffect(() => {
    if (!sp || !info.paymentScripts) return
    let timer: ReturnType<typeof setTimeout> | undefined
    loadScript(info.paymentScripts.stripe)
      .then(() => {
        const stripe = (window as any).Stripe(sp.publicKey, { locale: 'de', ...(sp.accountId ? { stripeAccount: sp.accountId } : {}) })
        const elements = stripe.elements({ mode: 'payment', amount: o.grossPrice, currency: o.currency === 'CHF' ? 'chf' : 'eur' })
        api.current = { stripe, elements }
        // §9: the form is created 100 ms after the script
        timer = setTimeout(() => {
          const pe = elements.create('payment', { fields: { billingDetails: { name: 'never' } } })
          pe.on('change', (e: { error?: { message: string } }) => setElementError(e.error ? e.error.message : null))
          if (box.current) pe.mount(box.current)
          setReady(true)
        }, 100)
      })
      .catch(() => setError(t('payments.pay.scriptFailed')))
    return () => clearTimeout(timer)
  }, [sp?.publicKey])

  const pay = async () => {
    setError(null)
    // §5: card, SEPA, SOFORT and GIROPAY need a holder name of at least 3 characters
    if (name.trim().length < 3) return setNameError(t('payments.pay.nameTooShort', { min: 3 }))
    setNameError(null)
    if (elementError || !api.current) return
    setBusy(true)
    try {
      const { stripe, elements } = api.current
      const submitted = await elements.submit()
      if (submitted.error) return setError(stripeMessage(submitted.error))
      try {
        await post(`${base}/proceed/paymentPay`, { paymentMethod: 'STRIPE', stripePaymentType: types[0], fullName: name.trim(), acceptTerms: true })
      } catch (e) {
        if (e instanceof ApiError && e.errorType === 'ORDER_STEP_CHANGED') return void (await done())
        return setError(errorText(e))
      }
      const fresh = await get<OnlineInfo>(base)
      const r = await stripe.confirmPayment({ elements, clientSecret: fresh.stripePayment?.clientSecret, confirmParams: { return_url: sp!.successUrl, payment_method_data: { billing_details: { name: name.trim() } } }, redirect: 'if_required' })
      const back = await post<{ step: number }>(`${base}/stripe/success`, {}).catch(() => null)
      await done(r.error ? stripeMessage(r.error) : back ? null : t('payments.pay.failed', { code: 'network' }))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="pay-online pay-stripe">
      <div class={`pay-field ${nameError ? 'has-error' : ''}`}>
        <label for="pay-fullName">{t('payments.pay.holder')} *</label>
        <input id="pay-fullName" name="fullName" autoComplete="cc-name" value={name} onInput={(e) => (setName((e.target as HTMLInputElement).value), setNameError(null))} aria-invalid={!!nameError} />
        {nameError && <p class="pay-error">{nameError}</p>}
      </div>
      <div ref={box} class="pay-stripe-element" data-testid="stripe-element" />
      {elementError && (
        <p class="pay-error" role="alert">
          {elementError}
        </p>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <div class="pay-actions">
        <Button busy={busy} disabled={!ready || !!elementError} onClick={pay}>
          {t('ticketing.pay.confirm', { total: money(o.grossPrice, o.currency) })}
        </Button>
      </div>
    </div>
  )
}

function PayPalPay({ info, base, done }: { info: OnlineInfo; base: string; done: Done }) {
  const box = useRef<HTMLDivElement>(null)
  const [error, setError] = useState<string | null>(null)
  const m = info.paymentMethods.find((x) => x.method === 'PAYPAL')
  useEffect(() => {
    if (!m?.payPalClientId || !info.paymentScripts) return
    const q = new URLSearchParams({ 'client-id': m.payPalClientId, currency: info.ticketOrder.currency === 'CHF' ? 'CHF' : 'EUR', intent: 'capture' })
    if (m.disabledFundings?.length) q.set('disable-funding', m.disabledFundings.join(','))
    loadScript(`${info.paymentScripts.paypal}?${q}`)
      .then(() =>
        (window as any).paypal
          .Buttons({
            createOrder: async () => (await post<{ payPalPayment: { orderID: string } }>(`${base}/proceed/paypal/init`, { acceptTerms: true })).payPalPayment.orderID,
            onApprove: async () => {
              try {
                await post(`${base}/proceed/paymentPay`, { paymentMethod: 'PAYPAL', acceptTerms: true })
                await done()
              } catch (e) {
                setError(errorText(e))
              }
            },
            onCancel: () => setError(t('payments.pay.aborted')),
            onError: () => setError(t('payments.pay.failed', { code: 'PAYPAL' })),
          })
          .render(box.current),
      )
      .catch(() => setError(t('payments.pay.scriptFailed')))
  }, [m?.payPalClientId])
  return (
    <div class="pay-online pay-paypal">
      {error && <Alert tone="error">{error}</Alert>}
      <div ref={box} data-testid="paypal-buttons" />
    </div>
  )
}

function MolliePay({ base, done }: { base: string; done: Done }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return (
    <div class="pay-online pay-mollie">
      {error && <Alert tone="error">{error}</Alert>}
      <div class="pay-actions">
        <Button
          busy={busy}
          onClick={async () => {
            setBusy(true)
            setError(null)
            try {
              const r = await post<{ molliePayment: { redirectUrl: string } }>(`${base}/proceed/mollie/init`, { acceptTerms: true })
              location.assign(r.molliePayment.redirectUrl)
            } catch (e) {
              setBusy(false)
              if (e instanceof ApiError && e.errorType === 'ORDER_STEP_CHANGED') return void (await done())
              setError(errorText(e))
            }
          }}
        >
          {t('payments.pay.toMollie')}
        </Button>
      </div>
    </div>
  )
}
