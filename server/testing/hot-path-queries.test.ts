// Query counts of the hot requests (issue 25): how many SQL statements one request sends to the
// database, on both dialects, after one request of the same kind has warmed the caches (the
// steady state of a storm). The numbers are recorded below; a change that adds a statement fails
// here and says which statements the request ran. Update a number only on purpose (and say why in
// the commit); when a change saves one, lower it so the saving is kept. Round trips of transaction
// control (begin, savepoint, release, commit) are recorded beside them: on Postgres each is one.
// docs/benchmarks.md "Query counts per hot request" has the history.
import { afterAll, expect, test } from 'bun:test'
import { STRIPE, attemptsOf, onlineEvent, orderUrl, startFakes, stripeHook, toConfirmation } from '../modules/payments/testing'
import { buy, buyer, paidEvent } from '../modules/ticketing/testing'
import { type Agent, type Harness, forEachDialect, uniqueEmail } from './harness'
import { addGuest, createEvent, licenseWith } from './organiser'
import { countQueries, listed } from './query-count'

type Path = 'registration' | 'registrationFields' | 'ticketOrder' | 'deskCheckin' | 'selfCheckin' | 'chairHold' | 'webhookPaid' | 'webhookAlready'

/** [data statements, transaction control statements] per request */
const RECORDED: Record<Path, { sqlite: [number, number]; postgres: [number, number] }> = {
  registration: { sqlite: [10, 4], postgres: [10, 2] },
  registrationFields: { sqlite: [13, 4], postgres: [13, 2] },
  ticketOrder: { sqlite: [14, 4], postgres: [14, 2] },
  deskCheckin: { sqlite: [9, 4], postgres: [9, 2] },
  selfCheckin: { sqlite: [7, 4], postgres: [7, 2] },
  chairHold: { sqlite: [9, 4], postgres: [9, 2] },
  webhookPaid: { sqlite: [15, 4], postgres: [15, 2] },
  webhookAlready: { sqlite: [5, 0], postgres: [5, 0] },
}

const fakes = startFakes()
afterAll(() => fakes.stop())

/** One request counted; it must succeed with `status`, and its counts must be the recorded ones. */
async function expectQueries(h: Harness, path: Path, status: number, request: () => Promise<{ status: number; text?: string; body?: unknown }>) {
  const q = await countQueries(h, request)
  const r = q.result
  if (r.status !== status) throw new Error(`${path}: answered ${r.status}, expected ${status}: ${r.text ?? JSON.stringify(r.body)}`)
  const [want, wantControl] = RECORDED[path][h.dialect]
  const got = q.statements.length
  const msg = (what: string) =>
    `${path} [${h.dialect}]: ${what}. Statements now:\n${listed(q.statements)}\ncontrol: ${q.control.join(', ') || '–'}\n` +
    'Change the number in RECORDED (server/testing/hot-path-queries.test.ts) only on purpose, and say why in the commit.'
  if (process.env.RECORD_QUERIES) console.log(`${path} [${h.dialect}]: ${got} statements, ${q.control.length} control\n${listed(q.statements)}`)
  else {
    if (got > want) throw new Error(msg(`${got} statements, ${got - want} more than the recorded ${want}`))
    if (got < want) throw new Error(msg(`${got} statements, fewer than the recorded ${want} — lower the record so the saving is kept`))
    if (q.control.length !== wantControl) throw new Error(msg(`${q.control.length} transaction control statements, recorded ${wantControl}`))
  }
  expect(got).toBeGreaterThan(0)
  return r
}

forEachDialect(
  'query counts of the hot requests',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    test('setup', async () => {
      admin = await h().admin()
    })

    test('public registration, no form fields', async () => {
      const e = await createEvent(admin, { maxVisitors: 1000 })
      const register = () => h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Bea', lastName: 'Bench', email: uniqueEmail('reg') } })
      expect((await register()).status).toBe(201)
      await expectQueries(h(), 'registration', 201, register)
    })

    test('public registration, 15 form fields and 2 escorts', async () => {
      const e = await createEvent(admin, { maxVisitors: null, maxVisitorPerSubscription: 3 })
      const add = async (f: Record<string, unknown>) => {
        const r = await admin.post(`/proxy/api/events/${e.id}/fields`, f)
        expect(r.status).toBe(201)
        return r.body
      }
      const F = {
        company: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'COMPANY', displayName: 'Firma', appearance: 'REQUIRED' }),
        position: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'POSITION', displayName: 'Position' }),
        phone: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon', appearance: 'REQUIRED' }),
        birthday: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'BIRTHDAY', displayName: 'Geburtstag', settings: { minAge: 18 } }),
        address: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'ADDRESS', displayName: 'Adresse', appearance: 'REQUIRED' }),
        gender: await add({ type: 'GENDER', displayName: 'Geschlecht' }),
        country: await add({ type: 'COUNTRY', displayName: 'Land' }),
        diet: await add({ type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegetarisch', 'Vegan'], appearance: 'REQUIRED' }),
        hotel: await add({ type: 'YES_NO', displayName: 'Hotel?', appearance: 'REQUIRED' }),
        nights: await add({ type: 'NUMBER', displayName: 'Nächte', conditions: [] }),
        arrival: await add({ type: 'DATE', displayName: 'Anreise' }),
        time: await add({ type: 'TIME', displayName: 'Ankunftszeit' }),
        note: await add({ type: 'TEXTAREA', displayName: 'Anmerkungen' }),
        workshop: await add({ type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'A' }, { displayName: 'B' }] }),
        web: await add({ type: 'TEXT', displayName: 'Webseite' }),
      }
      expect((await admin.put(`/proxy/api/events/${e.id}/fields/${F.nights.id}`, { ...F.nights, conditions: [{ fieldId: F.hotel.id, operator: 'IS_TRUE' }] })).status).toBe(200)
      const fields = {
        [F.company.id]: 'ACME GmbH',
        [F.position.id]: 'Leitung',
        [F.phone.id]: '030 1234567',
        [F.birthday.id]: '01.02.1980',
        [F.address.id]: { street: 'Hauptstr.', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' },
        [F.gender.id]: 'FEMALE',
        [F.country.id]: 'DEU',
        [F.diet.id]: { selected: ['Vegan'], custom: null },
        [F.hotel.id]: true,
        [F.nights.id]: 2,
        [F.arrival.id]: '2026-12-01',
        [F.time.id]: '09:30',
        [F.note.id]: 'Rollstuhlgerechter Zugang erbeten.',
        [F.workshop.id]: [{ fieldValueId: F.workshop.definedValues[0].id, amount: 1 }],
        [F.web.id]: 'https://example.org',
      }
      const escortPersons = [
        { firstName: 'Eva', lastName: 'Eins' },
        { firstName: 'Emil', lastName: 'Zwei' },
      ]
      const register = () => h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('form'), fields, escortPersons } })
      const first = await register()
      expect(first.status, first.text).toBe(201)
      await expectQueries(h(), 'registrationFields', 201, register)
    })

    test('ticket order, one category, INVOICE', async () => {
      const { event, categories } = await paidEvent(admin, { event: { maxVisitors: null }, methods: [{ method: 'INVOICE' }], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 100 }] })
      const order = () => buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
      const first = await order()
      expect(first.status, first.text).toBe(201)
      await expectQueries(h(), 'ticketOrder', 201, order)
    })

    test('check-in desk, one person by ticket code', async () => {
      const e = await createEvent(admin, { maxVisitors: null })
      const codes: string[] = []
      for (let i = 0; i < 2; i++) {
        const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
        codes.push((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.ticketCode)
      }
      let n = 0
      const checkin = (code: string) => () => admin.post(`/proxy/api/events/${e.id}/checkin`, { code, checkinGuests: [0], nonce: `qc-desk-${h().dialect}-${n++}` })
      expect((await checkin(codes[0])()).status).toBe(200)
      await expectQueries(h(), 'deskCheckin', 200, checkin(codes[1]))
    })

    test('self check-in, one person by registration token', async () => {
      const e = await createEvent(admin, { maxVisitors: null, allowSelfCheckin: true, allowSelfCheckout: true })
      const tokens: string[] = []
      for (let i = 0; i < 2; i++) {
        const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
        tokens.push((await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', g.id).executeTakeFirstOrThrow()).event_token!)
      }
      let n = 0
      const checkin = (token: string) => () => h().request('POST', '/proxy/api/guest/checkInOut', { body: { token, checkinGuests: [0], origin: 'selfcheckin', nonce: `qc-self-${h().dialect}-${n++}` } })
      expect((await checkin(tokens[0])()).status).toBe(200)
      await expectQueries(h(), 'selfCheckin', 200, checkin(tokens[1]))
    })

    test('chair hold on the public seating plan', async () => {
      const e = await createEvent(admin, { maxVisitors: null })
      const chair = (label: string, x: number) => ({ label, priceCategory: 'front', percentX: x, percentY: 10, percentWidth: 2, percentHeight: 3 })
      const saved = await admin.put(`/proxy/api/events/${e.id}/seatingplan`, {
        priceCategories: [{ key: 'front', displayName: 'Parkett', color: '#d9480f' }],
        areas: [{ displayName: 'Saal', chairs: [chair('A 1', 10), chair('A 2', 13)] }],
      })
      expect(saved.status, saved.text).toBe(200)
      const ids = (saved.body.areas[0].chairs as Array<{ id: number }>).map((c) => c.id)
      const hold = (chairId: number, who: string) => () => h().request('POST', `/proxy/api/public/events/${e.id}/seatingplan/reservation/chair`, { body: { chairId, identification: `qc-${who}-${h().dialect}`.padEnd(12, 'x'), amount: 1 } })
      const first = await hold(ids[0], 'one')()
      expect(first.body.succeeded, first.text).toBe(true)
      const r = await expectQueries(h(), 'chairHold', 200, hold(ids[1], 'two'))
      expect((r.body as { succeeded: boolean }).succeeded).toBe(true)
    })

    test('Stripe webhook with re-fetch: the one that pays, and a later delivery', async () => {
      const { event, categories } = await onlineEvent(admin, STRIPE, 100)
      const paidOrder = async () => {
        const id = await toConfirmation(h(), event.id, categories[0].id)
        await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
        const [a] = await attemptsOf(h(), id)
        fakes.stripe.confirm(a.external_id!, 'ok')
        return { pi: a.external_id!, method: a.payment_method_id! }
      }
      const warm = await paidOrder()
      expect((await stripeHook(h(), fakes.stripe, warm.method, warm.pi)).body.outcome).toBe('PAID')
      expect((await stripeHook(h(), fakes.stripe, warm.method, warm.pi)).body.outcome).toBe('ALREADY')
      const o = await paidOrder()
      // the signature is built before the count: only the request is counted
      const send = async () => {
        const w = await fakes.stripe.webhook(o.pi, {})
        return () => h().app.handle(new Request(`http://localhost/proxy/api/payments/stripe/webhook/${o.method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': w.signature }, body: w.body })).then(async (r) => ({ status: r.status, body: await r.json() }))
      }
      const paid = await expectQueries(h(), 'webhookPaid', 200, await send())
      expect((paid.body as { outcome: string }).outcome).toBe('PAID')
      const already = await expectQueries(h(), 'webhookAlready', 200, await send())
      expect((already.body as { outcome: string }).outcome).toBe('ALREADY')
    })
  },
  { env: fakes.env, license: licenseWith([], { events: -1 }) },
)
