// Seating: the organiser's plan, the guest's chair holds with every rejection code and message,
// expiry, assign mode, and never two guests on one place (also under 200 concurrent requests).
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../app'
import { diskAssets } from '../../http/ui-assets'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'

type Admin = Agent & { agencyId: number }

const plan = (over: Record<string, unknown> = {}) => ({
  priceCategories: [
    { key: 'front', displayName: 'Parkett', color: '#d9480f' },
    { key: 'back', displayName: 'Rang', color: '#1971c2' },
  ],
  areas: [
    {
      displayName: 'Saal',
      chairs: [
        { label: 'A 1', priceCategory: 'front', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
        { label: 'A 2', priceCategory: 'front', percentX: 13, percentY: 10, percentWidth: 2, percentHeight: 3, options: ['DISABLED_CHAIR'] },
        { label: 'A 3', priceCategory: 'back', percentX: 16, percentY: 10, percentWidth: 2, percentHeight: 3, status: 'BLOCKED' },
        { label: 'Tisch 1', priceCategory: 'back', viewType: 'RECTANGLE', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 8, minAmount: 2, maxAmount: 6 },
      ],
    },
  ],
  ...over,
})

forEachDialect('seating plans and chair reservations', (h) => {
  let n = 0
  const visit = () => `visit-${Date.now().toString(36)}-${++n}`.padEnd(12, 'x')
  async function setup(eventOver: Record<string, unknown> = {}) {
    const admin = (await h().admin()) as Admin
    const event = await createEvent(admin, eventOver)
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan())
    expect(saved.status).toBe(200)
    const area = saved.body.areas[0]
    const chair = (label: string) => area.chairs.find((c: any) => c.label === label)
    return { admin, event, area, chair }
  }
  const reserve = (eventId: number, body: Record<string, unknown>) => h().request('POST', `/api/public/events/${eventId}/seatingplan/reservation/chair`, { body })

  test('the organiser saves and reads a plan; another agency gets 404, the desk role cannot edit', async () => {
    const { admin, event, area, chair } = await setup()
    expect(area).toMatchObject({ displayName: 'Saal', width: 1500, height: 1000 })
    expect(chair('A 2')).toMatchObject({ options: ['DISABLED_CHAIR'], priceCategory: { displayName: 'Parkett', color: '#d9480f' }, freeChairs: 1, places: 1 })
    expect(chair('A 3')).toMatchObject({ status: 'BLOCKED', freeChairs: 0 })
    expect(chair('Tisch 1')).toMatchObject({ viewType: 'RECTANGLE', places: 8, freeChairs: 8, minAmount: 2, maxAmount: 6 })
    // saving again with ids keeps the chairs, a moved chair moves, a dropped one goes
    const again = plan()
    const body = {
      priceCategories: (await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body.priceCategories.map((p: any) => ({ key: `k${p.id}`, id: p.id, displayName: p.displayName, color: p.color })),
      areas: [{ id: area.id, displayName: 'Großer Saal', chairs: area.chairs.filter((c: any) => c.label !== 'A 1').map((c: any) => ({ ...c, priceCategory: c.priceCategory ? `k${c.priceCategory.id}` : null, percentX: c.label === 'A 2' ? 50 : c.percentX })) }],
    }
    void again
    const r = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, body)
    expect(r.status).toBe(200)
    expect(r.body.areas[0].displayName).toBe('Großer Saal')
    expect(r.body.areas[0].chairs.map((c: any) => c.label)).toEqual(['A 2', 'A 3', 'Tisch 1'])
    expect(r.body.areas[0].chairs.find((c: any) => c.label === 'A 2')).toMatchObject({ id: chair('A 2').id, percentX: 50 })
    // bad input: a chair naming no category, min above places
    const bad = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ areas: [{ displayName: 'X', chairs: [{ label: 'Z', priceCategory: 'nope', percentX: 1, percentY: 1, percentWidth: 1, percentHeight: 1 }] }] }))
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields[0]).toMatchObject({ field: 'areas.0.chairs.0.priceCategory', errorType: 'INVALID' })
    const minMax = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ areas: [{ displayName: 'X', chairs: [{ label: 'Z', percentX: 1, percentY: 1, percentWidth: 1, percentHeight: 1, places: 2, minAmount: 3 }] }] }))
    expect(minMax.status).toBe(400)

    const other = (await h().admin()) as Admin
    expect((await other.get(`/proxy/api/events/${event.id}/seatingplan`)).status).toBe(404)
    expect((await other.put(`/proxy/api/events/${event.id}/seatingplan`, plan())).status).toBe(404)
    expect((await other.request('PATCH', `/proxy/api/events/${event.id}/seatingplan/chairs/${chair('A 2').id}`, { body: { blocked: true } })).status).toBe(404)
    // a chair id of another event is unknown in this one
    const e2 = await createEvent(admin)
    expect((await admin.request('PATCH', `/proxy/api/events/${e2.id}/seatingplan/chairs/${chair('A 2').id}`, { body: { blocked: true } })).status).toBe(404)
  })

  test('a guest holds a chair: the spec\'s answers, messages and rejection codes', async () => {
    const { event, area, chair } = await setup({ maxVisitorPerSubscription: 3 })
    const me = visit()
    const pub = await h().request('GET', `/api/public/events/${event.id}/seatingplan`)
    expect(pub.body.areas).toEqual([expect.objectContaining({ id: area.id, width: 1500, height: 1000 })])
    expect(pub.body.priceCategories.map((p: any) => p.displayName)).toEqual(['Parkett', 'Rang'])

    const ok = await reserve(event.id, { chairId: chair('A 1').id, identification: me, amount: 1 })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ succeeded: true, freeChairs: 0 })
    expect(ok.body.reservationToken.length).toBeGreaterThan(20)
    // the area shows the hold to its visit only
    const mine = await h().request('POST', `/api/public/events/${event.id}/seatingplanArea`, { body: { areaId: area.id, identification: me } })
    expect(mine.body.chairs.find((c: any) => c.label === 'A 1')).toMatchObject({ choosed: true, choosedAmount: 1, freeChairs: 0, reservationToken: ok.body.reservationToken })
    const theirs = await h().request('POST', `/api/public/events/${event.id}/seatingplanArea`, { body: { areaId: area.id, identification: visit() } })
    expect(theirs.body.chairs.find((c: any) => c.label === 'A 1')).toMatchObject({ choosed: false, reservationToken: null, freeChairs: 0 })

    const gone = await reserve(event.id, { chairId: chair('A 1').id, identification: visit(), amount: 1 })
    expect(gone.status).toBe(409)
    expect(gone.body).toMatchObject({ errorType: 'SEAT_NOT_AVAILABLE', errorMessage: 'Dieser Platz steht leider nicht mehr zur Verfügung.', succeeded: false, freeChairs: 0, rejection: 'reservationError' })
    const blocked = await reserve(event.id, { chairId: chair('A 3').id, identification: visit(), amount: 1 })
    expect(blocked.body).toMatchObject({ errorType: 'SEAT_NOT_AVAILABLE', rejection: 'blocked' })
    const amount = await reserve(event.id, { chairId: chair('Tisch 1').id, identification: visit(), amount: 1 })
    expect(amount.body).toMatchObject({ errorType: 'SEAT_NOT_RESERVED', errorMessage: 'Der Platz konnte nicht reserviert werden.', rejection: 'chairAmount', freeChairs: 8 })
    // the event maximum (3) counts every place the visit holds
    const max = await reserve(event.id, { chairId: chair('Tisch 1').id, identification: me, amount: 3 })
    expect(max.body).toMatchObject({ errorType: 'SEAT_MAX_REACHED', errorMessage: 'Sie haben die maximale Anzahl an Tickets pro Bestellung bereits erreicht.', rejection: 'maxChooseCount' })
    const two = await reserve(event.id, { chairId: chair('Tisch 1').id, identification: me, amount: 2 })
    expect(two.body).toMatchObject({ succeeded: true, freeChairs: 6 })
    const unknown = await reserve(event.id, { chairId: 999_999, identification: me, amount: 1 })
    expect(unknown.body).toMatchObject({ errorType: 'SEAT_NOT_RESERVED', rejection: 'requestError' })
    const bad = await reserve(event.id, { chairId: chair('A 2').id, identification: 'x', amount: 1 })
    expect(bad.status).toBe(400)

    // give back one of the table's two places, then everything
    const less = await h().request('DELETE', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { reservationToken: two.body.reservationToken, amount: 1, identification: me } })
    expect(less.body).toEqual({ released: 1 })
    const all = await h().request('DELETE', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { deleteAll: true, identification: me } })
    expect(all.body).toEqual({ released: 2 })
    const area2 = await h().request('POST', `/api/public/events/${event.id}/seatingplanArea`, { body: { areaId: area.id } })
    expect(area2.body.chairs.map((c: any) => [c.label, c.freeChairs])).toEqual([
      ['A 1', 1],
      ['A 2', 1],
      ['A 3', 0],
      ['Tisch 1', 8],
    ])
  })

  test("chairFormat 'columns' (einlass's extension) answers the spec's chairs field by field; without it the answer is the spec's", async () => {
    const { event, area, chair } = await setup()
    const me = visit()
    const held = await reserve(event.id, { chairId: chair('Tisch 1').id, identification: me, amount: 2 })
    expect(held.status).toBe(200)
    const url = `/api/public/events/${event.id}/seatingplanArea`
    const spec = await h().request('POST', url, { body: { areaId: area.id, identification: me } })
    expect(Object.keys(spec.body)).toEqual(['chairs'])
    expect(spec.body.chairs).toHaveLength(4)
    const cols = await h().request('POST', url, { body: { areaId: area.id, identification: me, chairFormat: 'columns' } })
    expect(cols.status).toBe(200)
    expect(Object.keys(cols.body).sort()).toEqual(['chairColumns', 'priceCategories'])
    const c = cols.body.chairColumns
    const categories = new Map(cols.body.priceCategories.map((p: any) => [p.id, p]))
    const rebuilt = c.id.map((_: number, i: number) => Object.fromEntries(Object.keys(c).map((k) => [k, k === 'priceCategory' ? (categories.get(c[k][i]) ?? null) : c[k][i]])))
    expect(rebuilt).toEqual(spec.body.chairs)
    expect(spec.body.chairs.find((x: any) => x.label === 'Tisch 1')).toMatchObject({ choosed: true, choosedAmount: 2, freeChairs: 6, reservationToken: held.body.reservationToken })
    // an unknown format is refused like any bad field, in German
    const bad = await h().request('POST', url, { body: { areaId: area.id, chairFormat: 'xml' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'chairFormat', errorType: 'INVALID' }] })
    expect(bad.body.errorMessage).toBe('Die Daten konnten nicht gespeichert werden. Bitte füllen Sie alle Pflichtfelder aus.')
  })

  test('holds expire: the countdown runs out, the chair comes back, renew keeps it', async () => {
    const { event, chair } = await setup()
    const me = visit()
    const r = await reserve(event.id, { chairId: chair('A 1').id, identification: me, amount: 1 })
    h().clock.advance(10 * 60_000)
    expect((await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair/renew`, { body: { identification: me } })).status).toBe(200)
    h().clock.advance(10 * 60_000)
    expect((await reserve(event.id, { chairId: chair('A 1').id, identification: visit(), amount: 1 })).body.rejection).toBe('reservationError')
    h().clock.advance(6 * 60_000)
    const renew = await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair/renew`, { body: { identification: me } })
    expect(renew.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    const other = await reserve(event.id, { chairId: chair('A 1').id, identification: visit(), amount: 1 })
    expect(other.body.succeeded).toBe(true)
    // the expired token can no longer be given back
    const old = await h().request('DELETE', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { reservationToken: r.body.reservationToken } })
    expect(old.body.errorType).toBe('UNABLE_TO_REVOKE_RESERVATION')
  })

  test('an offline event answers nothing; a plan with holds keeps its chairs; occupancy counts per category', async () => {
    const { admin, event, area, chair } = await setup()
    const me = visit()
    await reserve(event.id, { chairId: chair('Tisch 1').id, identification: me, amount: 4 })
    // the organiser cannot drop or shrink a chair that holds places; nothing of the save is written
    const drop = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { priceCategories: [], areas: [{ id: area.id, displayName: 'Leer', chairs: [] }] })
    expect(drop.status).toBe(409)
    expect(drop.body).toMatchObject({ errorType: 'SEATING_CHAIR_IN_USE', errorMessage: 'Der Platz Tisch 1 ist vergeben oder reserviert und kann nicht entfernt oder verkleinert werden.' })
    expect((await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body.areas[0].chairs).toHaveLength(4)
    const occ = await admin.get(`/proxy/api/events/${event.id}/seatingplan/occupancy`)
    expect(occ.body.categories.map((c: any) => [c.priceCategory.displayName, c.places, c.taken, c.reserved, c.blocked, c.free])).toEqual([
      ['Parkett', 2, 0, 0, 0, 2],
      ['Rang', 9, 0, 4, 1, 4],
    ])
    expect((await admin.request('PATCH', `/proxy/api/events/${event.id}/seatingplan/chairs/${chair('A 1').id}`, { body: { blocked: true } })).body.status).toBe('BLOCKED')
    expect((await reserve(event.id, { chairId: chair('A 1').id, identification: visit(), amount: 1 })).body.rejection).toBe('blocked')

    await admin.put(`/proxy/api/events/${event.id}`, { ...event, visibility: 'OFFLINE' })
    const offline = await admin.get(`/proxy/api/events/${event.id}`)
    if (offline.body.visibility === 'OFFLINE') {
      expect((await h().request('GET', `/api/public/events/${event.id}/seatingplan`)).status).toBe(404)
      expect((await h().request('POST', `/api/public/events/${event.id}/seatingplanArea`, { body: { areaId: area.id } })).status).toBe(404)
    }
  })

  test('assign mode: a guest gets one chair, reassigning moves it, the place counts', async () => {
    const { admin, event, chair } = await setup()
    const guest = await addGuest(admin, event.id)
    const a = await admin.put(`/proxy/api/events/${event.id}/visitors/${guest.id}/chair`, { chairId: chair('A 1').id })
    expect(a.body).toEqual({ chairId: chair('A 1').id, label: 'A 1' })
    const b = await admin.put(`/proxy/api/events/${event.id}/visitors/${guest.id}/chair`, { chairId: chair('A 2').id })
    expect(b.status).toBe(200)
    const plan2 = (await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body.areas[0].chairs
    expect(plan2.map((c: any) => [c.label, c.freeChairs])).toEqual([
      ['A 1', 1],
      ['A 2', 0],
      ['A 3', 0],
      ['Tisch 1', 8],
    ])
    const occ = await admin.get(`/proxy/api/events/${event.id}/seatingplan/occupancy`)
    expect(occ.body.categories[0]).toMatchObject({ taken: 1, free: 1 })
    const other = (await h().admin()) as Admin
    expect((await other.put(`/proxy/api/events/${event.id}/visitors/${guest.id}/chair`, { chairId: chair('A 1').id })).status).toBe(404)
  })

  test('200 guests at once for one seat: exactly one gets it; a table of 8 never holds more than 8', async () => {
    const { event, chair } = await setup({ maxVisitorPerSubscription: 10 })
    const seat = await Promise.all(Array.from({ length: 200 }, () => reserve(event.id, { chairId: chair('A 1').id, identification: visit(), amount: 1 })))
    expect(seat.filter((r) => r.status === 200)).toHaveLength(1)
    expect(seat.filter((r) => r.status === 409 && r.body.errorType === 'SEAT_NOT_AVAILABLE')).toHaveLength(199)
    const table = await Promise.all(Array.from({ length: 60 }, (_, i) => reserve(event.id, { chairId: chair('Tisch 1').id, identification: visit(), amount: 2 + (i % 3) })))
    const won = table.filter((r) => r.status === 200)
    const sum = won.reduce((s, r, i) => s + (r.body.succeeded ? 1 : 0) * 0, 0)
    void sum
    const held = await h().ctx.db.selectFrom('chair_reservation').select((eb) => eb.fn.sum<number>('amount').as('n')).where('chair_id', '=', chair('Tisch 1').id).executeTakeFirstOrThrow()
    const row = await h().ctx.db.selectFrom('seating_chair').select('taken').where('id', '=', chair('Tisch 1').id).executeTakeFirstOrThrow()
    expect(Number(held.n)).toBeLessThanOrEqual(8)
    expect(Number(row.taken)).toBe(Number(held.n))
    expect(won.length).toBeGreaterThanOrEqual(2)
  })

  test('the public page of an open public event whose plan has an area is the seating page (the plan first); other events, the frame and other pages are not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'einlass-seating-page-'))
    try {
      for (const [f, text] of [['index.html', 'plain'], ['index-public.html', 'public'], ['index-public-seating.html', 'seating']]) writeFileSync(join(dir, f), text)
      const app = createApp(h().ctx, { assets: diskAssets(dir) })
      const page = async (path: string) => {
        const r = await app.handle(new Request(`http://localhost${path}`))
        expect(r.status).toBe(200)
        expect(r.headers.get('content-type')).toStartWith('text/html')
        return r.text()
      }
      const { admin, event } = await setup()
      expect(await page(`/public/event/${event.id}`)).toBe('seating')
      expect(await page(`/public/event/${event.id}/`)).toBe('seating')
      expect(await page(`/public/event/${event.id}?sl=abc`)).toBe('seating')
      // the host page's frame keeps its own page
      expect(await page(`/public/event/${event.id}/frame`)).toBe('public')
      // without a plan, with a plan of no area, unknown and absurd ids: the plain public page
      const bare = await createEvent(admin)
      expect(await page(`/public/event/${bare.id}`)).toBe('public')
      expect((await admin.put(`/proxy/api/events/${bare.id}/seatingplan`, plan({ areas: [] }))).status).toBe(200)
      expect(await page(`/public/event/${bare.id}`)).toBe('public')
      expect(await page('/public/event/999999999')).toBe('public')
      expect(await page('/public/event/99999999999999999999999')).toBe('public')
      expect(await page('/events')).toBe('plain')
      // registration over: the page shows no form, so no plan first
      const closed = await createEvent(admin, { registrationUntil: new Date(h().clock.now().getTime() - 3600_000).toISOString() })
      expect((await admin.put(`/proxy/api/events/${closed.id}/seatingplan`, plan())).status).toBe(200)
      expect(await page(`/public/event/${closed.id}`)).toBe('public')
      // an event the public may not see tells nothing about its plan
      await admin.put(`/proxy/api/events/${event.id}`, { ...event, visibility: 'OFFLINE' })
      expect((await h().request('GET', `/api/public/events/${event.id}/seatingplan`)).status).toBe(404)
      expect(await page(`/public/event/${event.id}`)).toBe('public')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
