// A local Stripe: the form-encoded PaymentIntent and Refund calls einlass makes through the
// `stripe` SDK (pointed here with host/port/protocol), and webhook events signed the real way
// (generateTestHeaderStringAsync with the endpoint's signing secret). Tests play the guest's side
// with confirm(): a good card, a declined card, or 3-D Secure still pending.
import Stripe from 'stripe'
import { type FakeBase, notFoundJson, rid, startFake } from './base'

export interface FakeIntent {
  id: string
  object: 'payment_intent'
  amount: number
  currency: string
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled'
  client_secret: string
  metadata: Record<string, string>
  latest_charge: string | null
  last_payment_error: null | { code: string; decline_code?: string; message: string }
  amount_received: number
}

export interface FakeRefund {
  id: string
  object: 'refund'
  payment_intent: string
  amount: number
  currency: string
  status: 'succeeded' | 'pending' | 'failed' | 'canceled'
  created: number
}

export interface StripeFake extends FakeBase {
  intents: Map<string, FakeIntent>
  refunds: FakeRefund[]
  /** a refund made in Stripe's dashboard (not through einlass) */
  refundOutside(intentId: string, amount: number, status?: FakeRefund['status']): FakeRefund
  /** the status the next refunds einlass creates get (a SEPA refund is pending for days), succeeded by default */
  refundStatusOnCreate: FakeRefund['status']
  /** Stripe moving a refund on (succeeded), or failing it later */
  setRefundStatus(id: string, status: FakeRefund['status']): void
  /** the guest confirms: ok, declined card, or 3-D Secure (requires_action) */
  confirm(id: string, outcome?: 'ok' | 'declined' | '3ds'): FakeIntent
  /**
   * A signed webhook request for the intent's current state; with `about` for its charge (as
   * charge.refunded carries it) or one of its refunds (refund.created / refund.updated).
   */
  webhook(id: string, opts?: { type?: string; eventId?: string; secret?: string; amount?: number; about?: 'charge' | { refund: string } }): Promise<{ body: string; signature: string }>
  /** the secret keys Stripe knows (any other answers 401 as Stripe does for a made-up key); sk_test_einlass and sk_test_fake by default */
  keys: Set<string>
}

const parseForm = (body: string) => {
  const out: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(body)) out[k] = v
  return out
}

export function startStripeFake(webhookSecret: string): StripeFake {
  const intents = new Map<string, FakeIntent>()
  const refunds: StripeFake['refunds'] = []
  // creation times one second apart, as Stripe lists them (newest first)
  let clock = Math.floor(Date.now() / 1000)
  const created = () => ++clock
  const stripe = new Stripe('sk_test_fake', {})
  const keys = new Set(['sk_test_einlass', 'sk_test_fake'])
  const base = startFake((req, url, body) => {
    const key = (req.headers.get('authorization') ?? '').replace(/^Bearer /, '')
    if (!keys.has(key)) return Response.json({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}***` } }, { status: 401 })
    const f = parseForm(body)
    // the key check when an organiser saves the method (GET /v1/balance, as Stripe answers it)
    if (url.pathname === '/v1/balance' && req.method === 'GET') return Response.json({ object: 'balance', available: [{ amount: 0, currency: 'eur', source_types: { card: 0 } }], pending: [{ amount: 0, currency: 'eur', source_types: { card: 0 } }], livemode: false })
    const m = url.pathname.match(/^\/v1\/payment_intents(?:\/([^/]+))?(?:\/(cancel))?$/)
    if (m && req.method === 'POST' && !m[1]) {
      const id = rid('pi')
      const metadata: Record<string, string> = {}
      for (const [k, v] of Object.entries(f)) if (k.startsWith('metadata[')) metadata[k.slice(9, -1)] = v
      const pi: FakeIntent = { id, object: 'payment_intent', amount: Number(f.amount), currency: f.currency, status: 'requires_payment_method', client_secret: `${id}_secret_${rid('s')}`, metadata, latest_charge: null, last_payment_error: null, amount_received: 0 }
      intents.set(id, pi)
      return Response.json(pi)
    }
    if (m && m[1]) {
      const pi = intents.get(m[1])
      if (!pi) return notFoundJson('payment_intent')
      if (m[2] === 'cancel') {
        if (pi.status === 'succeeded') return Response.json({ error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'already succeeded' } }, { status: 400 })
        pi.status = 'canceled'
      }
      return Response.json(pi)
    }
    if (url.pathname === '/v1/refunds' && req.method === 'POST') {
      const pi = intents.get(f.payment_intent)
      if (!pi || pi.status !== 'succeeded') return Response.json({ error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'not refundable' } }, { status: 400 })
      const done = refunds.filter((r) => r.payment_intent === pi.id && r.status !== 'failed' && r.status !== 'canceled').reduce((s, r) => s + r.amount, 0)
      const amount = f.amount ? Number(f.amount) : pi.amount - done
      if (amount <= 0 || done + amount > pi.amount) return Response.json({ error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'amount too large' } }, { status: 400 })
      const r: FakeRefund = { id: rid('re'), object: 'refund', payment_intent: pi.id, amount, status: fake.refundStatusOnCreate, currency: pi.currency, created: created() }
      refunds.push(r)
      return Response.json(r)
    }
    const one = url.pathname.match(/^\/v1\/refunds\/(re_\w+)$/)
    if (one && req.method === 'GET') {
      const r = refunds.find((x) => x.id === one[1])
      return r ? Response.json(r) : notFoundJson('refund')
    }
    if (url.pathname === '/v1/refunds' && req.method === 'GET') {
      const of = url.searchParams.get('payment_intent')
      return Response.json({ object: 'list', url: '/v1/refunds', has_more: false, data: refunds.filter((r) => !of || r.payment_intent === of).reverse() })
    }
    return notFoundJson(url.pathname)
  })
  const fake: StripeFake = Object.assign(base, {
    keys,
    intents,
    refunds,
    refundStatusOnCreate: 'succeeded' as FakeRefund['status'],
    setRefundStatus(id: string, status: FakeRefund['status']) {
      refunds.find((r) => r.id === id)!.status = status
    },
    confirm(id: string, outcome: 'ok' | 'declined' | '3ds' = 'ok') {
      const pi = intents.get(id)!
      if (outcome === 'ok') Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: rid('ch'), last_payment_error: null })
      else if (outcome === '3ds') pi.status = 'requires_action'
      else Object.assign(pi, { status: 'requires_payment_method', last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } })
      return pi
    },
    refundOutside(intentId: string, amount: number, status: FakeRefund['status'] = 'succeeded') {
      const pi = intents.get(intentId)!
      const r: FakeRefund = { id: rid('re'), object: 'refund', payment_intent: pi.id, amount, status, currency: pi.currency, created: created() }
      refunds.push(r)
      return r
    },
    async webhook(id: string, opts: { type?: string; eventId?: string; secret?: string; amount?: number; about?: 'charge' | { refund: string } } = {}) {
      const pi = { ...intents.get(id)!, ...(opts.amount != null ? { amount: opts.amount, amount_received: opts.amount } : {}) }
      const refunded = refunds.filter((r) => r.payment_intent === id && r.status === 'succeeded').reduce((a, r) => a + r.amount, 0)
      const object =
        opts.about === 'charge'
          ? { id: pi.latest_charge, object: 'charge', payment_intent: pi.id, amount: pi.amount, amount_refunded: refunded, refunded: refunded >= pi.amount, currency: pi.currency }
          : opts.about
            ? refunds.find((r) => r.id === (opts.about as { refund: string }).refund)
            : pi
      const type = opts.type ?? (opts.about === 'charge' ? 'charge.refunded' : opts.about ? 'refund.created' : pi.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed')
      const body = JSON.stringify({ id: opts.eventId ?? rid('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object }, livemode: false, api_version: '2025-01-27' })
      const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret: opts.secret ?? webhookSecret })
      return { body, signature }
    },
  })
  return fake
}
