// Selling rules organisers set (issue 21, docs/ticketing.md "Selling rules"): description, sale
// period shown as "ab …"/"beendet", hidden categories opened by a code, minimum/maximum per order
// (also under concurrency), a category that needs another, coupons for several categories, and the
// terms accepted before paying, stored with the order.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`
const pub = (eventId: number, q = '') => `/proxy/api/public/events/${eventId}/ticketCategories${q}`

forEachDialect('selling rules', (h) => {
  test('the organiser sets description, sale period, a hidden category with a code and a required category; bad rules are field errors', async () => {
    const admin = await h().admin()
    const now = h().clock.now().getTime()
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'Erwachsene', grossPrice: 3000, taxCode: 'TAX_19', description: 'Ab 18 Jahren.\nMit Getränk.' },
        { displayName: 'Frühbucher', grossPrice: 2000, taxCode: 'TAX_19', saleUntil: new Date(now - 3600_000).toISOString() },
        { displayName: 'Abendkasse', grossPrice: 3500, taxCode: 'TAX_19', saleFrom: new Date(now + 86400_000).toISOString() },
      ],
    })
    const [adult] = categories
    const url = `/proxy/api/events/${event.id}/ticketCategories`
    const child = await admin.post(url, { displayName: 'Kind', grossPrice: 1000, taxCode: 'TAX_19', requiresCategoryId: adult.id, minPerOrder: 1, maxPerOrder: 4 })
    expect(child.status).toBe(201)
    expect(child.body).toMatchObject({ requiresCategoryId: adult.id, hidden: false, accessCode: null, description: null })
    const vip = await admin.post(url, { displayName: 'Sponsoren', grossPrice: 0, taxCode: 'TAX_19', accessCode: ' sponsor-26 ' })
    expect(vip.body).toMatchObject({ accessCode: 'SPONSOR-26', hidden: true })
    expect(adult).toMatchObject({ description: 'Ab 18 Jahren.\nMit Getränk.' })

    // a code of the wrong shape, a category that needs itself or one of another event
    expect((await admin.post(url, { displayName: 'X', grossPrice: 0, taxCode: 'TAX_19', accessCode: 'a b' })).body.errorFields).toEqual([{ field: 'accessCode', errorType: 'INVALID' }])
    expect((await admin.put(`${url}/${child.body.id}`, { displayName: 'Kind', grossPrice: 1000, taxCode: 'TAX_19', requiresCategoryId: child.body.id })).body.errorFields).toEqual([{ field: 'requiresCategoryId', errorType: 'INVALID' }])
    const other = await paidEvent(admin)
    const foreign = await admin.post(url, { displayName: 'X', grossPrice: 0, taxCode: 'TAX_19', requiresCategoryId: other.categories[0].id })
    expect(foreign.status).toBe(400)
    expect(foreign.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'requiresCategoryId', errorType: 'INVALID' }] })
    expect(foreign.body.errorMessage ?? foreign.body.errorTranslation ?? '').not.toBe('')
    // an empty code makes the category public again
    const open = await admin.put(`${url}/${vip.body.id}`, { displayName: 'Sponsoren', grossPrice: 0, taxCode: 'TAX_19', accessCode: '' })
    expect(open.body).toMatchObject({ accessCode: null, hidden: false })
    await admin.put(`${url}/${vip.body.id}`, { displayName: 'Sponsoren', grossPrice: 0, taxCode: 'TAX_19', accessCode: 'SPONSOR-26' })

    // the public list: hidden ones only with their code; sale state and what a category needs
    const list = (await h().request('GET', pub(event.id))).body
    expect(list.hasHidden).toBe(true)
    expect(list.items.map((c: any) => c.displayName)).toEqual(['Erwachsene', 'Frühbucher', 'Abendkasse', 'Kind'])
    expect(list.items.map((c: any) => [c.saleState, c.onSale])).toEqual([
      ['ON_SALE', true],
      ['ENDED', false],
      ['NOT_YET', false],
      ['ON_SALE', true],
    ])
    expect(list.items[0].description).toBe('Ab 18 Jahren.\nMit Getränk.')
    expect(list.items[2].saleFrom).toBe(categories[2].saleFrom)
    expect(list.items[3]).toMatchObject({ requiresCategoryId: adult.id, requiresName: 'Erwachsene' })
    expect(JSON.stringify(list)).not.toContain('SPONSOR')
    const withCode = await h().request('GET', pub(event.id, '?code=sponsor-26'))
    expect(withCode.body.items.map((c: any) => c.displayName)).toEqual(['Erwachsene', 'Frühbucher', 'Abendkasse', 'Kind', 'Sponsoren'])
    expect(withCode.body.items[4]).toMatchObject({ hidden: true, onSale: true })
    const wrong = await h().request('GET', pub(event.id, '?code=RATEN'))
    expect(wrong.status).toBe(400)
    expect(wrong.body.errorFields).toEqual([{ field: 'code', errorType: 'TICKET_CODE_INVALID' }])
  })

  test('the server enforces every rule on order and price preview: hidden without code, child alone, sale period, min and max', async () => {
    const admin = await h().admin()
    const now = h().clock.now().getTime()
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'Erwachsene', grossPrice: 3000, taxCode: 'TAX_19', maxPerOrder: 4 },
        { displayName: 'Sponsoren', grossPrice: 5000, taxCode: 'TAX_19', accessCode: 'GOLD' },
        { displayName: 'Später', grossPrice: 1000, taxCode: 'TAX_19', saleFrom: new Date(now + 3600_000).toISOString() },
      ],
    })
    const [adult, hidden, later] = categories
    const child = (await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, { displayName: 'Kind', grossPrice: 1000, taxCode: 'TAX_19', requiresCategoryId: adult.id, minPerOrder: 2 })).body
    const fields = async (body: Record<string, unknown>) => {
      const r = await buy(h(), event.id, body)
      expect(r.status).toBe(400)
      expect(r.body.errorType).toBe('FIELD_ERROR')
      return r.body.errorFields
    }
    // a hidden category without (or with a wrong) code is answered like an unknown one
    expect(await fields(buyer([{ categoryId: hidden.id, amount: 1 }]))).toEqual([{ field: 'tickets.0.categoryId', errorType: 'INVALID' }])
    expect(await fields(buyer([{ categoryId: hidden.id, amount: 1 }], { ticketCode: 'SILBER' }))).toEqual([{ field: 'tickets.0.categoryId', errorType: 'INVALID' }])
    // a child ticket alone, and the child's own minimum
    expect(await fields(buyer([{ categoryId: child.id, amount: 2 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'REQUIRES_CATEGORY' }])
    expect(await fields(buyer([{ categoryId: child.id, amount: 2 }, { categoryId: adult.id, amount: 0 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'REQUIRES_CATEGORY' }])
    expect(await fields(buyer([{ categoryId: adult.id, amount: 1 }, { categoryId: child.id, amount: 1 }]))).toEqual([{ field: 'tickets.1.amount', errorType: 'BELOW_MIN_PER_ORDER' }])
    expect(await fields(buyer([{ categoryId: adult.id, amount: 5 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'ABOVE_MAX_PER_ORDER' }])
    expect(await fields(buyer([{ categoryId: later.id, amount: 1 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'NOT_ON_SALE' }])
    // the German text of each new code is in the catalogue the pages read
    const { de } = await import('../../i18n/de')
    for (const code of ['REQUIRES_CATEGORY', 'TICKET_CODE_INVALID', 'TERMS_NOT_ACCEPTED']) expect((de as Record<string, string>)[`field.${code}`]).toMatch(/^[A-ZÄÖÜ]/)
    // the price preview follows the same rules
    const price = (body: Record<string, unknown>) => h().request('POST', `/proxy/api/public/events/${event.id}/ticketPrice`, { body })
    expect((await price({ tickets: [{ categoryId: child.id, amount: 2 }] })).body.errorFields).toEqual([{ field: 'tickets.0.amount', errorType: 'REQUIRES_CATEGORY' }])
    expect((await price({ tickets: [{ categoryId: hidden.id, amount: 1 }] })).body.errorFields).toEqual([{ field: 'tickets.0.categoryId', errorType: 'INVALID' }])
    expect((await price({ tickets: [{ categoryId: hidden.id, amount: 1 }], ticketCode: 'gold' })).body).toMatchObject({ grossPrice: 5000 })
    // with the adult and the code: sold, nothing of the refusals held
    const ok = await buy(h(), event.id, buyer([{ categoryId: adult.id, amount: 1 }, { categoryId: child.id, amount: 2 }, { categoryId: hidden.id, amount: 1 }], { ticketCode: 'gold' }))
    expect(ok.status).toBe(201)
    const sold = await h().ctx.db.selectFrom('ticket_category').select(['id', 'sold']).where('event_id', '=', event.id).orderBy('id').execute()
    expect(sold.map((s) => s.sold)).toEqual([1, 1, 0, 2])
    // the sale starts: the category sells
    h().clock.advance(2 * 3600_000)
    expect((await buy(h(), event.id, buyer([{ categoryId: later.id, amount: 1 }]))).status).toBe(201)
  })

  test('maximum per order and quota under concurrency: 40 buyers of 3 (max 3) and 20 of 4 for a quota of 10', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { maxVisitors: 1000 }, categories: [{ displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19', quota: 10, maxPerOrder: 3 }] })
    const id = categories[0].id
    const results = await Promise.all([
      ...Array.from({ length: 40 }, () => buy(h(), event.id, buyer([{ categoryId: id, amount: 3 }]))),
      ...Array.from({ length: 20 }, () => buy(h(), event.id, buyer([{ categoryId: id, amount: 4 }]))),
    ])
    expect(results.slice(40).every((r) => r.status === 400 && r.body.errorFields[0].errorType === 'ABOVE_MAX_PER_ORDER')).toBe(true)
    expect(results.filter((r) => r.status === 201).length).toBe(3)
    expect(results.slice(0, 40).filter((r) => r.status === 409 && r.body.errorType === 'TICKETS_SOLD_OUT').length).toBe(37)
    const db = h().ctx.db
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', id).executeTakeFirstOrThrow()).sold).toBe(9)
    const lines = await db.selectFrom('ticket_order_line').select('amount').where('category_id', '=', id).execute()
    expect(lines.map((l) => l.amount)).toEqual([3, 3, 3])
  })

  test('a coupon for several categories reduces only their lines; a deleted category leaves its list', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19' },
        { displayName: 'B', grossPrice: 2000, taxCode: 'TAX_19' },
        { displayName: 'C', grossPrice: 4000, taxCode: 'TAX_19' },
      ],
    })
    const [a, b, c] = categories
    const url = `/proxy/api/events/${event.id}/coupons`
    const made = await admin.post(url, { code: 'ZWEI', valueType: 'PERCENT', reduction: 50, categoryIds: [a.id, b.id] })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ categoryIds: [a.id, b.id], categoryId: a.id })
    // the older single field still works and reads as a list of one
    expect((await admin.post(url, { code: 'EINS', valueType: 'PERCENT', reduction: 50, categoryId: c.id })).body).toMatchObject({ categoryIds: [c.id], categoryId: c.id })
    const other = await paidEvent(admin)
    expect((await admin.post(url, { code: 'FREMD', valueType: 'PERCENT', reduction: 5, categoryIds: [a.id, other.categories[0].id] })).body.errorFields).toEqual([{ field: 'categoryIds', errorType: 'INVALID' }])
    const r = await buy(h(), event.id, buyer([{ categoryId: a.id, amount: 1 }, { categoryId: b.id, amount: 1 }, { categoryId: c.id, amount: 1 }], { couponCode: 'zwei' }))
    expect(r.status).toBe(201)
    const t = (await h().request('GET', order(r.body.ticketOrderId))).body.ticketOrder
    expect(t.visitorTickets.map((l: any) => l.discount)).toEqual([500, 1000, 0])
    expect(t.grossPrice).toBe(5500)
    expect((await buy(h(), event.id, buyer([{ categoryId: c.id, amount: 1 }], { couponCode: 'ZWEI' }))).body.errorFields).toEqual([{ field: 'couponCode', errorType: 'COUPON_NO_TICKETS' }])
    // the bulk generator takes the same scope
    const bulk = await admin.post(`${url}/bulk`, { count: 2, prefix: 'B-', valueType: 'FIXED', reduction: 100, categoryIds: [b.id, c.id] })
    expect(bulk.status).toBe(201)
    expect(String(bulk.text ?? bulk.body)).toContain(`;${b.id},${c.id};`)
    // B has no orders left once that order is cancelled: deleting B keeps the coupon for A
    const fresh = (await admin.post(url, { code: 'NURB', valueType: 'PERCENT', reduction: 10, categoryIds: [b.id] })).body
    const unsold = (await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, { displayName: 'D', grossPrice: 500, taxCode: 'TAX_19' })).body
    const both = (await admin.put(`${url}/${fresh.id}`, { code: 'NURB', valueType: 'PERCENT', reduction: 10, categoryIds: [unsold.id, a.id] })).body
    expect(both.categoryIds).toEqual([unsold.id, a.id])
    expect((await admin.delete(`/proxy/api/events/${event.id}/ticketCategories/${unsold.id}`)).status).toBe(200)
    const after = (await admin.get(url)).body.find((x: any) => x.code === 'NURB')
    expect(after).toMatchObject({ categoryIds: [a.id], categoryId: a.id })
  })

  test('terms: set by the organiser, accepted with paymentPay (refused without), stored with the order and shown in its data', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const terms = `/proxy/api/events/${event.id}/ticketTerms`
    expect((await admin.get(terms)).body).toEqual({ termsText: null, termsUrl: null })
    expect((await admin.put(terms, { termsText: 'x', termsUrl: 'ftp://agb' })).body.errorFields).toEqual([{ field: 'termsUrl', errorType: 'INVALID_URL' }])
    expect((await admin.put(terms, { termsText: 'Stornierung bis 14 Tage vorher kostenlos.', termsUrl: 'https://example.org/agb' })).status).toBe(200)
    expect((await h().request('PUT', terms, { body: { termsText: 'x' } })).status).toBe(401)

    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const id = r.body.ticketOrderId as string
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(8)
    expect((await h().request('POST', `${order(id)}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(40)
    const info = (await h().request('GET', order(id))).body
    expect(info.terms).toEqual({ termsText: 'Stornierung bis 14 Tage vorher kostenlos.', termsUrl: 'https://example.org/agb' })
    expect(info.termsAccepted).toBeNull()
    const refused = await h().request('POST', `${order(id)}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER' } })
    expect(refused.status).toBe(400)
    expect(refused.body.errorFields).toEqual([{ field: 'acceptTerms', errorType: 'TERMS_NOT_ACCEPTED' }])
    expect((await h().request('POST', `${order(id)}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER', acceptTerms: false } })).status).toBe(400)
    expect((await h().request('GET', `${order(id)}/orderState`)).body).toMatchObject({ step: 40, status: 'OPEN' })
    const paid = await h().request('POST', `${order(id)}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER', acceptTerms: true } })
    expect(paid.body).toMatchObject({ step: 100 })
    const row = await h().ctx.db.selectFrom('ticket_order').select(['id', 'terms_accepted_at', 'terms_version', 'terms_text']).where('public_id', '=', id).executeTakeFirstOrThrow()
    expect(Math.abs(new Date(row.terms_accepted_at!).getTime() - h().clock.now().getTime())).toBeLessThan(60_000)
    expect(row.terms_version).toMatch(/^https:\/\/example\.org\/agb text:[0-9a-f]{16}$/)
    expect(row.terms_text).toBe('Stornierung bis 14 Tage vorher kostenlos.')
    const detail = (await admin.get(`/proxy/api/events/${event.id}/orders/${row.id}`)).body
    expect(detail.termsAccepted).toMatchObject({ version: row.terms_version, text: 'Stornierung bis 14 Tage vorher kostenlos.' })
    expect((await h().request('GET', order(id))).body.termsAccepted).toMatchObject({ text: 'Stornierung bis 14 Tage vorher kostenlos.' })

    // the organiser clears the terms: no checkbox, nothing stored
    expect((await admin.put(terms, { termsText: '', termsUrl: '' })).body).toEqual({ termsText: null, termsUrl: null })
    const r2 = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const id2 = r2.body.ticketOrderId as string
    await h().request('POST', `${order(id2)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
    await h().request('POST', `${order(id2)}/proceed/paymentSelection`, { body: { paymentMethod: 'INVOICE' } })
    expect((await h().request('GET', order(id2))).body.terms).toBeNull()
    expect((await h().request('POST', `${order(id2)}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(100)
    expect((await h().ctx.db.selectFrom('ticket_order').select('terms_accepted_at').where('public_id', '=', id2).executeTakeFirstOrThrow()).terms_accepted_at).toBeNull()
  })

  test('a copied event keeps its rules, its required category and coupon lists pointing at the copies', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { categories: [{ displayName: 'Erwachsene', grossPrice: 3000, taxCode: 'TAX_19' }, { displayName: 'Team', grossPrice: 0, taxCode: 'TAX_19', accessCode: 'CREW' }] })
    await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, { displayName: 'Kind', grossPrice: 1000, taxCode: 'TAX_19', requiresCategoryId: categories[0].id, description: 'Bis 12' })
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'BEIDE', valueType: 'PERCENT', reduction: 10, categoryIds: categories.map((c) => c.id) })
    await admin.put(`/proxy/api/events/${event.id}/ticketTerms`, { termsUrl: 'https://example.org/agb' })
    const copy = await admin.post(`/proxy/api/events/${event.id}/copy`, { displayName: 'Kopie' })
    expect(copy.status).toBe(201)
    const cats = (await admin.get(`/proxy/api/events/${copy.body.id}/ticketCategories`)).body.items
    expect(cats.map((c: any) => [c.displayName, c.accessCode, c.description])).toEqual([
      ['Erwachsene', null, null],
      ['Team', 'CREW', null],
      ['Kind', null, 'Bis 12'],
    ])
    expect(cats[2].requiresCategoryId).toBe(cats[0].id)
    const coupon = (await admin.get(`/proxy/api/events/${copy.body.id}/coupons`)).body[0]
    expect(coupon.categoryIds).toEqual([cats[0].id, cats[1].id])
    expect((await admin.get(`/proxy/api/events/${copy.body.id}/ticketTerms`)).body.termsUrl).toBe('https://example.org/agb')
  })
})
