// A local Mollie: /v2/payments create and get (with _links.checkout), refunds (create, get; "pending"
// until a test moves them on, a failed or canceled one gives its amount back to the payment), and a
// checkout page that, like Mollie's hosted one, lets the guest pay or cancel and redirects back.
// The webhook carries only the id (tests post it to einlass), so einlass always re-fetches.
import { type FakeBase, notFoundJson, rid, startFake } from './base'

export interface FakeMolliePayment {
  resource: 'payment'
  id: string
  mode: 'test'
  status: 'open' | 'pending' | 'paid' | 'failed' | 'canceled' | 'expired'
  amount: { currency: string; value: string }
  description: string
  redirectUrl: string
  webhookUrl?: string
  metadata: Record<string, unknown> | null
  createdAt: string
  amountRefunded?: { currency: string; value: string }
  _links: { checkout?: { href: string; type: string }; self: { href: string; type: string } }
}

export type FakeMollieRefundStatus = 'queued' | 'pending' | 'processing' | 'refunded' | 'failed' | 'canceled'
export interface FakeMollieRefund {
  resource: 'refund'
  id: string
  paymentId: string
  amount: { currency: string; value: string }
  value: string
  status: FakeMollieRefundStatus
  createdAt: string
  description: string
}

export interface MollieFake extends FakeBase {
  payments: Map<string, FakeMolliePayment>
  refunds: FakeMollieRefund[]
  setStatus(id: string, status: FakeMolliePayment['status']): void
  /** Mollie moving a refund on (refunded), or failing / cancelling it later */
  setRefundStatus(id: string, status: FakeMollieRefundStatus): void
  /** a refund made in Mollie's dashboard (not through einlass) */
  refundOutside(paymentId: string, cents: number, status?: FakeMollieRefundStatus): FakeMollieRefund
  /** the API keys Mollie knows (any other answers 401); the test key of payments/testing.ts by default */
  keys: Set<string>
}

export function startMollieFake(): MollieFake {
  const payments = new Map<string, FakeMolliePayment>()
  const refunds: MollieFake['refunds'] = []
  const keys = new Set(['test_einlassMollieKey0123456789abcd'])
  /** cents refunded or on the way (a failed or canceled refund gives its amount back) */
  const refundedOf = (paymentId: string) => refunds.filter((r) => r.paymentId === paymentId && r.status !== 'failed' && r.status !== 'canceled').reduce((s, r) => s + Math.round(Number(r.value) * 100), 0)
  const base: MollieFake = Object.assign(
    startFake((req, url, body) => {
      const co = url.pathname.match(/^\/checkout\/(tr_\w+)$/)
      if (co) {
        const p = payments.get(co[1])
        if (!p) return new Response('unknown payment', { status: 404 })
        const act = url.searchParams.get('act')
        if (act) {
          if (p.status === 'open') p.status = act === 'pay' ? 'paid' : act === 'pending' ? 'pending' : 'canceled'
          return new Response(null, { status: 303, headers: { location: p.redirectUrl } })
        }
        return new Response(
          `<!doctype html><meta name=viewport content="width=device-width"><title>Mollie Checkout (Test)</title><h1>Testzahlung ${p.amount.value} ${p.amount.currency}</h1><p>${p.description}</p><a id=pay href="?act=pay">Bezahlen</a> <a id=pending href="?act=pending">Später bestätigen</a> <a id=cancel href="?act=cancel">Abbrechen</a>`,
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        )
      }
      const key = (req.headers.get('authorization') ?? '').replace(/^Bearer /, '')
      if (!keys.has(key)) return Response.json({ status: 401, title: 'Unauthorized Request', detail: 'Missing authentication, or failed to authenticate', _links: { documentation: { href: 'https://docs.mollie.com/overview/authentication', type: 'text/html' } } }, { status: 401 })
      // the key check when an organiser saves the method (GET /v2/methods, as Mollie answers it)
      if (url.pathname === '/v2/methods' && req.method === 'GET') return Response.json({ count: 1, _embedded: { methods: [{ resource: 'method', id: 'creditcard', description: 'Kreditkarte', status: 'activated', _links: { self: { href: `${base.url}/v2/methods/creditcard`, type: 'application/hal+json' } } }] }, _links: { self: { href: `${base.url}/v2/methods`, type: 'application/hal+json' }, documentation: { href: 'https://docs.mollie.com', type: 'text/html' } } })
      if (url.pathname === '/v2/payments' && req.method === 'POST') {
        const b = JSON.parse(body)
        const id = rid('tr')
        const p: FakeMolliePayment = {
          resource: 'payment',
          id,
          mode: 'test',
          status: 'open',
          amount: b.amount,
          description: b.description,
          redirectUrl: b.redirectUrl,
          webhookUrl: b.webhookUrl,
          metadata: b.metadata ?? null,
          createdAt: new Date().toISOString(),
          _links: { checkout: { href: `${base.url}/checkout/${id}`, type: 'text/html' }, self: { href: `${base.url}/v2/payments/${id}`, type: 'application/hal+json' } },
        }
        payments.set(id, p)
        return Response.json(p, { status: 201 })
      }
      const one = url.pathname.match(/^\/v2\/payments\/(tr_\w+)\/refunds\/(re_\w+)$/)
      if (one && req.method === 'GET') {
        const r = refunds.find((x) => x.id === one[2] && x.paymentId === one[1])
        return r ? Response.json(r) : notFoundJson('refund')
      }
      const m = url.pathname.match(/^\/v2\/payments\/(tr_\w+)(\/refunds)?$/)
      if (m) {
        const p = payments.get(m[1])
        if (!p) return notFoundJson('payment')
        if (m[2] && req.method === 'GET') {
          // a payment's refunds, newest first (GET /v2/payments/{id}/refunds)
          const list = refunds.filter((r) => r.paymentId === p.id).reverse()
          return Response.json({ count: list.length, _embedded: { refunds: list }, _links: { self: { href: `${base.url}${url.pathname}`, type: 'application/hal+json' }, previous: null, next: null, documentation: { href: 'https://docs.mollie.com', type: 'text/html' } } })
        }
        if (m[2] && req.method === 'POST') {
          const b = JSON.parse(body)
          const done = refundedOf(p.id)
          const want = Math.round(Number(b.amount.value) * 100)
          if (p.status !== 'paid' || done + want > Math.round(Number(p.amount.value) * 100)) return Response.json({ status: 422, title: 'Unprocessable Entity', detail: 'The amount is higher than the refundable amount' }, { status: 422 })
          const r: FakeMollieRefund = { resource: 'refund', id: rid('re'), paymentId: p.id, amount: b.amount, value: b.amount.value, status: 'pending', createdAt: new Date().toISOString(), description: b.description ?? '' }
          refunds.push(r)
          p.amountRefunded = { currency: p.amount.currency, value: ((done + want) / 100).toFixed(2) }
          return Response.json(r, { status: 201 })
        }
        return Response.json({ ...p, _links: p.status === 'open' ? p._links : { self: p._links.self } })
      }
      return notFoundJson(url.pathname)
    }),
    {
      keys,
      payments,
      refunds,
      refundOutside(paymentId: string, cents: number, status: FakeMollieRefundStatus = 'refunded') {
        const p = payments.get(paymentId)!
        const value = (cents / 100).toFixed(2)
        const r: FakeMollieRefund = { resource: 'refund', id: rid('re'), paymentId, amount: { currency: p.amount.currency, value }, value, status, createdAt: new Date().toISOString(), description: 'im Mollie-Dashboard erstattet' }
        refunds.push(r)
        p.amountRefunded = { currency: p.amount.currency, value: (refundedOf(p.id) / 100).toFixed(2) }
        return r
      },
      setStatus: (id: string, status: FakeMolliePayment['status']) => void (payments.get(id)!.status = status),
      setRefundStatus(id: string, status: FakeMollieRefundStatus) {
        const r = refunds.find((x) => x.id === id)!
        r.status = status
        const p = payments.get(r.paymentId)!
        p.amountRefunded = { currency: p.amount.currency, value: (refundedOf(p.id) / 100).toFixed(2) }
      },
    },
  )
  return base
}
