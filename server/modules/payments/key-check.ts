// The provider keys of an online payment method are tried when the organiser saves them (issue 20):
// made-up keys were saved unchecked and Stripe was then offered to guests who could not pay. Stripe:
// the balance is read with the secret key (GET /v1/balance); Mollie: the methods are listed with the
// API key (GET /v2/methods); PayPal: an OAuth token is asked for with client id and secret. A key the
// provider refuses is PAYMENT_KEYS_REJECTED (400, at the field, naming the provider); a provider that
// cannot be reached is PAYMENT_PROVIDER_UNAVAILABLE (502). Nothing is saved in either case.
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import { setCredentialCheck } from '../ticketing/payment-methods'
import { mollieSdk, providerTimeout, stripeSdk } from './clients'
import { callProvider } from './providers'

const NAMES: Record<string, string> = { STRIPE: 'Stripe', MOLLIE: 'Mollie', PAYPAL: 'PayPal' }

const rejected = (method: string) =>
  new AppError(400, 'PAYMENT_KEYS_REJECTED', {
    params: { provider: NAMES[method] ?? method },
    fields: [...(method === 'PAYPAL' ? [{ field: 'publicKey', errorType: 'PAYMENT_KEYS_REJECTED' }] : []), { field: 'secretKey', errorType: 'PAYMENT_KEYS_REJECTED' }],
  })

/** An answer of 401 (or Stripe's authentication error): the provider does not know these keys. */
const refusedKeys = (e: unknown) => {
  const x = e as { statusCode?: number; type?: string; status?: number }
  return x?.statusCode === 401 || x?.type === 'StripeAuthenticationError' || x?.status === 401
}

async function tryKeys(ctx: AppContext, k: { method: string; publicKey: string | null; secretKey: string; testMode: boolean; accountId: string | null }) {
  if (k.method === 'STRIPE') {
    const u = new URL(ctx.config.payments.stripe_api_url)
    const Stripe = await stripeSdk()
    const stripe = new Stripe(k.secretKey, {
      host: u.hostname,
      port: u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443,
      protocol: u.protocol === 'http:' ? 'http' : 'https',
      timeout: providerTimeout(),
      maxNetworkRetries: 0,
      ...(k.accountId ? { stripeAccount: k.accountId } : {}),
    })
    try {
      await stripe.balance.retrieve()
    } catch (e) {
      // a restricted key without the balance permission is a key Stripe knows; with a connected
      // account the same error says the key has no access to that account
      if ((e as { type?: string }).type === 'StripePermissionError') {
        if (!k.accountId) return
        throw new AppError(400, 'PAYMENT_KEYS_REJECTED', { params: { provider: 'Stripe' }, fields: [{ field: 'accountId', errorType: 'PAYMENT_KEYS_REJECTED' }] })
      }
      throw e
    }
    return
  }
  if (k.method === 'MOLLIE') {
    const createMollieClient = await mollieSdk()
    await createMollieClient({ apiKey: k.secretKey, apiEndpoint: ctx.config.payments.mollie_api_url }).methods.list()
    return
  }
  if (k.method === 'PAYPAL') {
    const base = (k.testMode ? ctx.config.payments.paypal_sandbox_api_url : ctx.config.payments.paypal_api_url).replace(/\/$/, '')
    const res = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${k.publicKey ?? ''}:${k.secretKey}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(providerTimeout()),
    })
    if (res.status === 401 || res.status === 400) throw Object.assign(new Error('PayPal refused the client credentials'), { status: 401 })
    if (!res.ok) throw new Error(`PayPal token ${res.status}`)
  }
}

setCredentialCheck((ctx, k) =>
  callProvider(ctx, `${k.method.toLowerCase()}.keyCheck`, async () => {
    try {
      await tryKeys(ctx, k)
    } catch (e) {
      // refused keys are the organiser's to fix, not a provider that is down
      if (refusedKeys(e)) throw rejected(k.method)
      throw e
    }
  }),
)
