// A local PayPal: OAuth token, Orders v2 create/get/capture, captures and refunds (create, get), and
// webhook signature verification (/v1/notifications/verify-webhook-signature), the calls of
// einlass's own PayPal client. approve() plays the buyer in the PayPal window; decline() a
// capture PayPal refuses (INSTRUMENT_DECLINED); webhook() builds a delivery signed for a webhook id
// (the real one is signed with PayPal's certificate; here an HMAC only this fake can check, over
// the same parts: transmission id, time, webhook id and the CRC32 of the body), and
// verify-webhook-signature answers FAILURE for anything else.
import { type FakeBase, notFoundJson, rid, startFake } from './base'

export interface FakePayPalOrder {
  id: string
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED'
  intent: 'CAPTURE'
  purchase_units: Array<{ reference_id?: string; custom_id?: string; amount: { currency_code: string; value: string }; payments?: { captures: Array<{ id: string; status: string; amount: { currency_code: string; value: string } }> } }>
  declined?: boolean
}

export interface FakePayPalRefund {
  id: string
  captureId: string
  value: string
  currency: string
  /** PayPal's refund states: PENDING (e.g. the seller's balance is short), then COMPLETED, FAILED or CANCELLED */
  status: 'COMPLETED' | 'PENDING' | 'FAILED' | 'CANCELLED'
}

export interface PayPalFake extends FakeBase {
  orders: Map<string, FakePayPalOrder>
  refunds: FakePayPalRefund[]
  /** webhook ids PayPal knows for this app (the organiser created the webhook there) */
  webhookIds: Set<string>
  approve(id: string): void
  decline(id: string): void
  /** the status a refund einlass asks for gets (COMPLETED unless a test says PENDING) */
  refundStatusOnCreate: FakePayPalRefund['status']
  /** moves a refund on (a PENDING one completed, failed or cancelled); a failed or cancelled one gives its amount back */
  setRefundStatus(id: string, status: FakePayPalRefund['status']): void
  /** a refund made in PayPal's own dashboard, outside einlass */
  refundOutside(captureId: string, value: string): FakePayPalRefund
  captureOf(orderId: string): string | null
  /** a webhook delivery: the raw body and PayPal's transmission headers */
  webhook(eventType: string, resource: Record<string, unknown>, opts?: { webhookId?: string; eventId?: string; badSignature?: boolean }): { body: string; headers: Record<string, string> }
  /** the resource PayPal sends with an event about an order, a capture or a refund */
  resourceOf(kind: 'order' | 'capture' | 'refund', id: string): Record<string, unknown>
}

const SIGNING_KEY = 'einlass-fake-paypal-signing-key'
const hmac = (data: string) => new Bun.CryptoHasher('sha256', SIGNING_KEY).update(data).digest('base64')
const signed = (transmissionId: string, time: string, webhookId: string, body: string) => hmac(`${transmissionId}|${time}|${webhookId}|${Bun.hash.crc32(body)}`)

export function startPayPalFake(clientId: string, secret: string): PayPalFake {
  const orders = new Map<string, FakePayPalOrder>()
  const refunds: PayPalFake['refunds'] = []
  /** a failed or cancelled refund gave nothing back */
  const counts = (x: FakePayPalRefund) => x.status === 'COMPLETED' || x.status === 'PENDING'
  const tokens = new Set<string>()
  const webhookIds = new Set<string>()
  let self = ''
  const captureJson = (cap: string) => {
    const o = [...orders.values()].find((x) => x.purchase_units[0]!.payments?.captures[0]!.id === cap)
    if (!o) return null
    const c = o.purchase_units[0]!.payments!.captures[0]!
    const total = Math.round(Number(c.amount.value) * 100)
    const done = refunds.filter((x) => x.captureId === cap && counts(x)).reduce((s, x) => s + Math.round(Number(x.value) * 100), 0)
    return { ...c, status: done === 0 ? 'COMPLETED' : done >= total ? 'REFUNDED' : 'PARTIALLY_REFUNDED', custom_id: o.purchase_units[0]!.custom_id, supplementary_data: { related_ids: { order_id: o.id } }, links: [{ rel: 'up', href: `${self}/v2/checkout/orders/${o.id}`, method: 'GET' }] }
  }
  const refundJson = (r: FakePayPalRefund) => ({ id: r.id, amount: { currency_code: r.currency, value: r.value }, status: r.status, links: [{ rel: 'self', href: `${self}/v2/payments/refunds/${r.id}`, method: 'GET' }, { rel: 'up', href: `${self}/v2/payments/captures/${r.captureId}`, method: 'GET' }] })
  const base = startFake((req, url, body) => {
    if (url.pathname === '/v1/oauth2/token' && req.method === 'POST') {
      if (req.headers.get('authorization') !== `Basic ${btoa(`${clientId}:${secret}`)}`) return Response.json({ error: 'invalid_client', error_description: 'Client Authentication failed' }, { status: 401 })
      const t = rid('A21')
      tokens.add(t)
      return Response.json({ access_token: t, token_type: 'Bearer', expires_in: 32400 })
    }
    const auth = (req.headers.get('authorization') ?? '').replace(/^Bearer /, '')
    if (!tokens.has(auth)) return Response.json({ name: 'AUTHENTICATION_FAILURE' }, { status: 401 })
    if (url.pathname === '/v2/checkout/orders' && req.method === 'POST') {
      const b = JSON.parse(body)
      const o: FakePayPalOrder = { id: rid('PP').toUpperCase(), status: 'CREATED', intent: 'CAPTURE', purchase_units: b.purchase_units }
      orders.set(o.id, o)
      return Response.json(o, { status: 201 })
    }
    const m = url.pathname.match(/^\/v2\/checkout\/orders\/([\w-]+)(\/capture)?$/)
    if (m) {
      const o = orders.get(m[1])
      if (!o) return Response.json({ name: 'RESOURCE_NOT_FOUND' }, { status: 404 })
      if (m[2]) {
        if (o.declined) return Response.json({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'INSTRUMENT_DECLINED' }] }, { status: 422 })
        if (o.status !== 'APPROVED') return Response.json({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: o.status === 'COMPLETED' ? 'ORDER_ALREADY_CAPTURED' : 'ORDER_NOT_APPROVED' }] }, { status: 422 })
        o.status = 'COMPLETED'
        o.purchase_units[0].payments = { captures: [{ id: rid('CAP').toUpperCase(), status: 'COMPLETED', amount: o.purchase_units[0].amount }] }
      }
      return Response.json(o, { status: m[2] ? 201 : 200 })
    }
    if (url.pathname === '/v1/notifications/verify-webhook-signature' && req.method === 'POST') {
      const b = JSON.parse(body)
      const ok = webhookIds.has(b.webhook_id) && b.auth_algo === 'SHA256withRSA' && typeof b.transmission_sig === 'string' && b.transmission_sig === signed(b.transmission_id, b.transmission_time, b.webhook_id, JSON.stringify(b.webhook_event))
      return Response.json({ verification_status: ok ? 'SUCCESS' : 'FAILURE' })
    }
    const gc = url.pathname.match(/^\/v2\/payments\/captures\/([\w-]+)$/)
    if (gc && req.method === 'GET') {
      const c = captureJson(gc[1]!)
      return c ? Response.json(c) : Response.json({ name: 'RESOURCE_NOT_FOUND' }, { status: 404 })
    }
    const gr = url.pathname.match(/^\/v2\/payments\/refunds\/([\w-]+)$/)
    if (gr && req.method === 'GET') {
      const x = refunds.find((y) => y.id === gr[1])
      return x ? Response.json(refundJson(x)) : Response.json({ name: 'RESOURCE_NOT_FOUND' }, { status: 404 })
    }
    const r = url.pathname.match(/^\/v2\/payments\/captures\/([\w-]+)\/refund$/)
    if (r && req.method === 'POST') {
      const o = [...orders.values()].find((x) => x.purchase_units[0].payments?.captures[0].id === r[1])
      if (!o) return Response.json({ name: 'RESOURCE_NOT_FOUND' }, { status: 404 })
      const b = body ? JSON.parse(body) : {}
      const total = Math.round(Number(o.purchase_units[0].amount.value) * 100)
      const done = refunds.filter((x) => x.captureId === r[1] && counts(x)).reduce((s, x) => s + Math.round(Number(x.value) * 100), 0)
      const want = b.amount ? Math.round(Number(b.amount.value) * 100) : total - done
      if (done + want > total) return Response.json({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_AMOUNT_EXCEEDED' }] }, { status: 422 })
      const x: FakePayPalRefund = { id: rid('RF').toUpperCase(), captureId: r[1]!, value: (want / 100).toFixed(2), currency: o.purchase_units[0]!.amount.currency_code, status: fake.refundStatusOnCreate }
      refunds.push(x)
      return Response.json(refundJson(x), { status: 201 })
    }
    return notFoundJson(url.pathname)
  })
  self = base.url
  const fake: PayPalFake = Object.assign(base, {
    orders,
    refunds,
    webhookIds,
    refundStatusOnCreate: 'COMPLETED' as FakePayPalRefund['status'],
    setRefundStatus(id: string, status: FakePayPalRefund['status']) {
      refunds.find((x) => x.id === id)!.status = status
    },
    captureOf: (id: string) => orders.get(id)?.purchase_units[0]!.payments?.captures[0]!.id ?? null,
    refundOutside(captureId: string, value: string) {
      const o = [...orders.values()].find((x) => x.purchase_units[0]!.payments?.captures[0]!.id === captureId)!
      const x: FakePayPalRefund = { id: rid('RF').toUpperCase(), captureId, value, currency: o.purchase_units[0]!.amount.currency_code, status: 'COMPLETED' }
      refunds.push(x)
      return x
    },
    resourceOf(kind: 'order' | 'capture' | 'refund', id: string): Record<string, unknown> {
      if (kind === 'order') return JSON.parse(JSON.stringify(orders.get(id)))
      if (kind === 'capture') return captureJson(id)!
      return refundJson(refunds.find((y) => y.id === id)!)
    },
    webhook(eventType: string, resource: Record<string, unknown>, opts: { webhookId?: string; eventId?: string; badSignature?: boolean } = {}) {
      const webhookId = opts.webhookId ?? [...webhookIds][0] ?? 'WH-UNKNOWN'
      const body = JSON.stringify({ id: opts.eventId ?? rid('WH').toUpperCase(), event_version: '1.0', create_time: new Date().toISOString(), resource_type: eventType.startsWith('CHECKOUT') ? 'checkout-order' : eventType.endsWith('COMPLETED') ? 'capture' : 'refund', event_type: eventType, summary: eventType, resource })
      const transmissionId = crypto.randomUUID()
      const time = new Date().toISOString()
      const sig = signed(transmissionId, time, webhookId, body)
      return {
        body,
        headers: {
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${base.url}/v1/notifications/certs/CERT-fake`,
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': opts.badSignature ? `${sig.slice(0, -4)}AAA=` : sig,
          'paypal-transmission-time': time,
        },
      }
    },
    approve: (id: string) => void (orders.get(id)!.status = 'APPROVED'),
    decline: (id: string) => {
      const o = orders.get(id)!
      o.status = 'APPROVED'
      o.declined = true
    },
  })
  return fake
}
