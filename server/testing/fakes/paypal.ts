// A local PayPal: OAuth token, Orders v2 create/get/capture and capture refunds, the calls of
// einlass's own PayPal client. approve() plays the buyer in the PayPal window; decline() a
// capture PayPal refuses (INSTRUMENT_DECLINED).
import { type FakeBase, notFoundJson, rid, startFake } from './base'

export interface FakePayPalOrder {
  id: string
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED'
  intent: 'CAPTURE'
  purchase_units: Array<{ reference_id?: string; custom_id?: string; amount: { currency_code: string; value: string }; payments?: { captures: Array<{ id: string; status: string; amount: { currency_code: string; value: string } }> } }>
  declined?: boolean
}

export interface PayPalFake extends FakeBase {
  orders: Map<string, FakePayPalOrder>
  refunds: Array<{ id: string; captureId: string; value: string }>
  approve(id: string): void
  decline(id: string): void
}

export function startPayPalFake(clientId: string, secret: string): PayPalFake {
  const orders = new Map<string, FakePayPalOrder>()
  const refunds: PayPalFake['refunds'] = []
  const tokens = new Set<string>()
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
    const r = url.pathname.match(/^\/v2\/payments\/captures\/([\w-]+)\/refund$/)
    if (r && req.method === 'POST') {
      const o = [...orders.values()].find((x) => x.purchase_units[0].payments?.captures[0].id === r[1])
      if (!o) return Response.json({ name: 'RESOURCE_NOT_FOUND' }, { status: 404 })
      const b = body ? JSON.parse(body) : {}
      const total = Math.round(Number(o.purchase_units[0].amount.value) * 100)
      const done = refunds.filter((x) => x.captureId === r[1]).reduce((s, x) => s + Math.round(Number(x.value) * 100), 0)
      const want = b.amount ? Math.round(Number(b.amount.value) * 100) : total - done
      if (done + want > total) return Response.json({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_AMOUNT_EXCEEDED' }] }, { status: 422 })
      const x = { id: rid('RF').toUpperCase(), captureId: r[1], value: (want / 100).toFixed(2), status: 'COMPLETED' }
      refunds.push(x)
      return Response.json(x, { status: 201 })
    }
    return notFoundJson(url.pathname)
  })
  return Object.assign(base, {
    orders,
    refunds,
    approve: (id: string) => void (orders.get(id)!.status = 'APPROVED'),
    decline: (id: string) => {
      const o = orders.get(id)!
      o.status = 'APPROVED'
      o.declined = true
    },
  })
}
