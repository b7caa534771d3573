// The coupon bulk generator: N one-use codes with a prefix in one call, answered as CSV; codes
// unique per event and unguessable; each redeemable once; bad input and other agencies refused.
import { expect, spyOn, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { buy, buyer, paidEvent } from './testing'

const parseCsv = (text: string) => {
  const [head, ...rows] = text.trim().split(/\r\n/)
  const keys = head.split(';')
  return rows.map((r) => Object.fromEntries(r.split(';').map((v, i) => [keys[i], v])))
}

forEachDialect('coupon bulk generator', (h) => {
  test('N one-use codes with a prefix as CSV: count, unique, parsed back, each used once', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'SOMMER', valueType: 'PERCENT', reduction: 10 })
    const url = `/proxy/api/events/${event.id}/coupons/bulk`
    const r = await admin.post(url, { count: 250, prefix: 'vip-', valueType: 'FIXED', reduction: 500, validUntil: '2099-01-01T00:00:00Z' })
    expect(r.status).toBe(201)
    expect(r.headers.get('content-type')).toContain('text/csv')
    expect(r.headers.get('content-disposition')).toContain('attachment')
    const rows = parseCsv(r.text)
    expect(rows.length).toBe(250)
    expect(new Set(rows.map((x) => x.code)).size).toBe(250)
    for (const x of rows) {
      expect(x.code).toMatch(/^VIP-[A-HJ-NP-Z2-9]{10}$/)
      expect(x).toMatchObject({ valueType: 'FIXED', reduction: '500', maxUses: '1', validUntil: '2099-01-01T00:00:00.000Z' })
    }
    // a second batch of the same prefix does not repeat a code
    const again = parseCsv((await admin.post(url, { count: 5, prefix: 'VIP-', valueType: 'PERCENT', reduction: 100 })).text)
    expect(again.length).toBe(5)
    const list = (await admin.get(`/proxy/api/events/${event.id}/coupons`)).body
    expect(list.length).toBe(256)
    expect(new Set(list.map((c: any) => c.code)).size).toBe(256)
    expect(list.find((c: any) => c.code === rows[0].code)).toMatchObject({ maxUses: 1, used: 0, reduction: 500 })
    // one use each
    const first = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { couponCode: rows[0].code.toLowerCase() }))
    expect(first.status).toBe(201)
    const second = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { couponCode: rows[0].code }))
    expect(second.body.errorFields).toEqual([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
    expect((await admin.get(`/proxy/api/events/${event.id}/coupons`)).body.find((c: any) => c.code === rows[0].code).used).toBe(1)
  })

  test('bulk: at most 1000, prefix checked, category of the event, other agencies 404', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin)
    const url = `/proxy/api/events/${event.id}/coupons/bulk`
    const base = { count: 5, prefix: 'X', valueType: 'PERCENT', reduction: 10 }
    expect((await admin.post(url, { ...base, count: 1001 })).body.errorFields).toEqual([{ field: 'count', errorType: 'TOO_BIG' }])
    expect((await admin.post(url, { ...base, count: 0 })).body.errorFields).toEqual([{ field: 'count', errorType: 'TOO_SMALL' }])
    expect((await admin.post(url, { ...base, prefix: 'ä b' })).body.errorFields).toEqual([{ field: 'prefix', errorType: 'INVALID' }])
    const other = await paidEvent(admin)
    expect((await admin.post(url, { ...base, categoryId: other.categories[0].id })).body.errorFields).toEqual([{ field: 'categoryId', errorType: 'INVALID' }])
    expect((await (await h().admin()).post(url, base)).status).toBe(404)
    expect((await admin.get(`/proxy/api/events/${event.id}/coupons`)).body).toEqual([])
  })

  test('bulk: a code that exists already is drawn again, never skipped or repeated', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'P-AAAAAAAAAA', valueType: 'PERCENT', reduction: 10 })
    const real = crypto.getRandomValues.bind(crypto)
    let calls = 0
    // the first draw is all zero bytes → 'P-AAAAAAAAAA', the existing code
    const spy = spyOn(crypto, 'getRandomValues').mockImplementation(((a: Uint8Array) => (calls++ === 0 ? a.fill(0) : real(a))) as typeof crypto.getRandomValues)
    try {
      const rows = parseCsv((await admin.post(`/proxy/api/events/${event.id}/coupons/bulk`, { count: 3, prefix: 'P-', valueType: 'PERCENT', reduction: 50 })).text)
      expect(rows.length).toBe(3)
      expect(rows.map((x) => x.code)).not.toContain('P-AAAAAAAAAA')
    } finally {
      spy.mockRestore()
    }
    const list = (await admin.get(`/proxy/api/events/${event.id}/coupons`)).body
    expect(list.length).toBe(4)
    expect(list.find((c: any) => c.code === 'P-AAAAAAAAAA').reduction).toBe(10)
  })
})
