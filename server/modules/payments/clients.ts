// Provider clients per payment method (docs/payments.md): the official `stripe` and
// `@mollie/api-client` SDKs, and a small fetch client for PayPal Orders v2. Base addresses are
// settings (payments.* in the config), so tests point them at the local fakes. Every call has a
// time limit; a provider that fails or does not answer becomes PAYMENT_PROVIDER_UNAVAILABLE (502)
// with a German text, never a 500.
import type { MollieClient } from '@mollie/api-client'
import type Stripe from 'stripe'
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import { AppError } from '../../shared/errors'
import { methodSecrets } from '../ticketing/payment-methods'
import type { PaymentMethodRow } from '../ticketing/ticketing.table'

export const PROVIDER_TIMEOUT_MS = 10_000

// The SDKs are loaded on first use (issue 25): most processes never talk to Stripe or Mollie, and
// evaluating both at start costs tens of megabytes and milliseconds of every start.
let stripeModule: Promise<typeof Stripe> | null = null
let mollieModule: Promise<typeof import('@mollie/api-client').default> | null = null
export const stripeSdk = () => (stripeModule ??= import('stripe').then((m) => m.default))
export const mollieSdk = () => (mollieModule ??= import('@mollie/api-client').then((m) => m.default))

export const providerDown = (cause?: unknown) => new AppError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', { detail: cause instanceof Error ? cause.message : undefined })

export async function withTimeout<T>(p: Promise<T>, ms = PROVIDER_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('provider timeout')), ms)))])
  } finally {
    clearTimeout(timer)
  }
}

function secretOf(ctx: AppContext, m: PaymentMethodRow) {
  const s = methodSecrets(ctx.secrets, m)
  if (!s) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  return s
}

let timeoutMs = PROVIDER_TIMEOUT_MS
/** Tests shorten the provider time limit to see a hanging provider quickly. */
export function setProviderTimeout(ms: number) {
  timeoutMs = ms
}
export const providerTimeout = () => timeoutMs

export async function stripeClient(ctx: AppContext, m: PaymentMethodRow): Promise<Stripe> {
  const u = new URL(ctx.config.payments.stripe_api_url)
  const StripeSdk = await stripeSdk()
  return new StripeSdk(secretOf(ctx, m).secretKey, {
    host: u.hostname,
    port: u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443,
    protocol: u.protocol === 'http:' ? 'http' : 'https',
    timeout: timeoutMs,
    maxNetworkRetries: 0,
    ...(m.account_id ? { stripeAccount: m.account_id } : {}),
  })
}

export const stripeWebhookSecret = (ctx: AppContext, m: PaymentMethodRow) => secretOf(ctx, m).webhookSecret ?? null
export const payPalWebhookId = (ctx: AppContext, m: PaymentMethodRow) => secretOf(ctx, m).webhookId ?? null

export async function mollieClient(ctx: AppContext, m: PaymentMethodRow): Promise<MollieClient> {
  const createMollieClient = await mollieSdk()
  return createMollieClient({ apiKey: secretOf(ctx, m).secretKey, apiEndpoint: ctx.config.payments.mollie_api_url })
}

// ---- PayPal Orders v2 (the server SDK knows only PayPal's own hosts) -----------------------

export class PayPalClient {
  private token: { value: string; until: number } | null = null
  constructor(
    private readonly base: string,
    private readonly clientId: string,
    private readonly secret: string,
  ) {}

  private async call(method: string, path: string, body?: unknown, requestId?: string, rawBody?: string): Promise<{ status: number; json: any }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.accessToken()}`, 'content-type': 'application/json', prefer: 'return=representation', ...(requestId ? { 'paypal-request-id': requestId } : {}) },
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const json = await res.json().catch(() => null)
    if (res.status >= 500) throw new Error(`PayPal ${res.status}`)
    return { status: res.status, json }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value
    const res = await fetch(`${this.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${this.clientId}:${this.secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!res.ok) throw new Error(`PayPal token ${res.status}`)
    const j = (await res.json()) as { access_token: string; expires_in: number }
    this.token = { value: j.access_token, until: Date.now() + (j.expires_in - 60) * 1000 }
    return j.access_token
  }

  createOrder(input: { amount: string; currency: string; customId: string; description: string }, requestId: string) {
    return this.call('POST', '/v2/checkout/orders', { intent: 'CAPTURE', purchase_units: [{ reference_id: input.customId, custom_id: input.customId, description: input.description, amount: { currency_code: input.currency, value: input.amount } }] }, requestId)
  }
  getOrder(id: string) {
    return this.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`)
  }
  capture(id: string, requestId: string) {
    return this.call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, requestId)
  }
  refund(captureId: string, amount: { value: string; currency_code: string }, requestId: string) {
    return this.call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, { amount }, requestId)
  }
  getCapture(id: string) {
    return this.call('GET', `/v2/payments/captures/${encodeURIComponent(id)}`)
  }
  getRefund(id: string) {
    return this.call('GET', `/v2/payments/refunds/${encodeURIComponent(id)}`)
  }
  /**
   * Asks PayPal whether a webhook delivery is genuine. The event goes back exactly as it came (the
   * raw body spliced in): PayPal checks its signature over those bytes, and a parsed and
   * re-serialised event (number formats, key order) can fail the check.
   */
  verifyWebhook(h: { authAlgo: string; certUrl: string; transmissionId: string; transmissionSig: string; transmissionTime: string }, webhookId: string, rawEvent: string) {
    const head = JSON.stringify({ auth_algo: h.authAlgo, cert_url: h.certUrl, transmission_id: h.transmissionId, transmission_sig: h.transmissionSig, transmission_time: h.transmissionTime, webhook_id: webhookId })
    return this.call('POST', '/v1/notifications/verify-webhook-signature', undefined, undefined, `${head.slice(0, -1)},"webhook_event":${rawEvent}}`)
  }
}

export function payPalClient(ctx: AppContext, m: PaymentMethodRow): PayPalClient {
  const base = bool(m.test_mode) ? ctx.config.payments.paypal_sandbox_api_url : ctx.config.payments.paypal_api_url
  return new PayPalClient(base.replace(/\/$/, ''), m.public_key ?? '', secretOf(ctx, m).secretKey)
}

/** Cents to the providers' decimal strings ("25.00"); currency codes of einlass to ISO 4217. */
export const decimal = (cents: number) => (cents / 100).toFixed(2)
export const isoCurrency = (c: string) => (c === 'EURO' ? 'EUR' : c)
export const fromDecimal = (v: string) => Math.round(Number(v) * 100)
