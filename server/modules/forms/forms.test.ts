// The form builder API on both dialects.
import { expect, test } from 'bun:test'
import { type Harness, createHarness, eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'

forEachDialect('form builder', (h) => {
  async function setup() {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody())
    expect(ev.status).toBe(201)
    return { admin, eventId: ev.body.id as number }
  }

  test('a new event starts with the default form; the public form shows it before anything is stored', async () => {
    const { admin, eventId } = await setup()
    const pub = await h().request('GET', `/proxy/api/public/events/${eventId}/form`)
    expect(pub.status).toBe(200)
    expect(pub.body.fields.map((f: any) => f.defaultField).slice(0, 5)).toEqual(['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL'])
    expect(pub.body.fields.every((f: any) => f.id < 0)).toBe(true)
    const r = await admin.get(`/proxy/api/events/${eventId}/fields`)
    expect(r.status).toBe(200)
    expect(r.body.formVersion).toBe(1)
    const names = r.body.fields.map((f: any) => f.defaultField)
    expect(names).toContain('ESCORT_ADDRESS')
    expect(r.body.fields.find((f: any) => f.defaultField === 'FIRST_NAME')).toMatchObject({ appearance: 'REQUIRED', locked: true })
    // named in German from the catalogue (defaultField.<CODE>), the same names the builder's palette uses
    const byCode = Object.fromEntries(r.body.fields.map((f: any) => [f.defaultField, f.displayName]))
    expect(byCode).toMatchObject({ SALUTATION: 'Anrede', EMAIL: 'E-Mail-Adresse', ESCORT_NAME: 'Name der Begleitperson', ESCORT_COVID_STATE: 'Covid-Status der Begleitperson' })
    expect(pub.body.fields.find((f: any) => f.defaultField === 'LAST_NAME').displayName).toBe('Nachname')
    // opening it twice does not duplicate the defaults
    const again = await admin.get(`/proxy/api/events/${eventId}/fields`)
    expect(again.body.fields.length).toBe(r.body.fields.length)
  })

  test('add, edit, order and remove fields with every property', async () => {
    const { admin, eventId } = await setup()
    const yes = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'YES_NO', displayName: 'Mit Übernachtung?', appearance: 'REQUIRED', translations: [{ language: 'en', displayName: 'Staying overnight?' }] })
    expect(yes.status).toBe(201)
    const slots = await admin.post(`/proxy/api/events/${eventId}/fields`, {
      type: 'TIMESLOT',
      displayName: 'Anreise',
      size: 'FULL',
      multiple: false,
      conditions: [{ fieldId: yes.body.id, operator: 'IS_TRUE' }],
      timeslots: [
        { displayName: '10:00 – 11:00', dateInfo: '12.12.', capacity: 5 },
        { displayName: '11:00 – 12:00', capacity: -1 },
      ],
    })
    expect(slots.status).toBe(201)
    expect(slots.body.timeslots.map((s: any) => [s.displayName, s.freeSlots])).toEqual([
      ['10:00 – 11:00', 5],
      ['11:00 – 12:00', -1],
    ])
    const smart = await admin.post(`/proxy/api/events/${eventId}/fields`, {
      type: 'SMARTLIST',
      displayName: 'Workshops',
      multiple: true,
      amountSelection: true,
      maxPerGuest: 3,
      hasDefinedGroups: true,
      definedGroups: [{ id: 'am', displayName: 'Vormittag' }],
      definedValues: [{ displayName: 'Töpfern', capacity: 10, group: 'am', minPerGuest: 1, maxPerGuest: 2 }],
    })
    expect(smart.status).toBe(201)
    expect(smart.body.definedValues[0]).toMatchObject({ displayName: 'Töpfern', freeValue: 10, group: 'am', minPerGuest: 1, maxPerGuest: 2 })

    // edit: rename, add a slot, keep the others by id
    const edited = await admin.put(`/proxy/api/events/${eventId}/fields/${slots.body.id}`, {
      ...slots.body,
      displayName: 'Ankunft',
      timeslots: [...slots.body.timeslots, { displayName: '12:00 – 13:00', capacity: 2 }],
    })
    expect(edited.status).toBe(200)
    expect(edited.body.displayName).toBe('Ankunft')
    expect(edited.body.timeslots.map((s: any) => s.id).slice(0, 2)).toEqual(slots.body.timeslots.map((s: any) => s.id))
    expect(edited.body.timeslots).toHaveLength(3)

    const all = await admin.get(`/proxy/api/events/${eventId}/fields`)
    const ids = all.body.fields.map((f: any) => f.id)
    const reordered = [ids[ids.length - 1], ...ids.slice(0, -1)]
    const ord = await admin.put(`/proxy/api/events/${eventId}/fields/order`, { ids: reordered })
    expect(ord.status).toBe(200)
    expect(ord.body.fields.map((f: any) => f.id)).toEqual(reordered)
    const badOrder = await admin.put(`/proxy/api/events/${eventId}/fields/order`, { ids: reordered.slice(1) })
    expect(badOrder.status).toBe(400)

    // removing the YES_NO drops the condition that read it
    const del = await admin.delete(`/proxy/api/events/${eventId}/fields/${yes.body.id}`)
    expect(del.status).toBe(200)
    const after = await admin.get(`/proxy/api/events/${eventId}/fields`)
    expect(after.body.fields.find((f: any) => f.id === slots.body.id).conditions).toEqual([])
    expect(after.body.formVersion).toBeGreaterThan(all.body.formVersion)
  })

  test('rules: REQUIRED not for separators, operators per type, locked and default fields, type changes', async () => {
    const { admin, eventId } = await setup()
    const sep = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'SEPARATOR', displayName: '—', appearance: 'REQUIRED' })
    expect(sep.status).toBe(400)
    expect(sep.body.errorFields).toEqual([{ field: 'appearance', errorType: 'APPEARANCE_NOT_ALLOWED' }])
    const txt = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'Firma' })
    const badOp = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'X', conditions: [{ fieldId: txt.body.id, operator: 'GREATER_THEN', value: 3 }] })
    expect(badOp.status).toBe(400)
    expect(badOp.body.errorFields).toEqual([{ field: 'conditions.0.operator', errorType: 'INVALID_CONDITION' }])
    const unknown = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'X', conditions: [{ fieldId: 999999, operator: 'IS_EMPTY' }] })
    expect(unknown.body.errorFields).toEqual([{ field: 'conditions.0.fieldId', errorType: 'INVALID_CONDITION' }])
    const vip = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'Nur VIP', conditions: [{ fieldId: 'VIP', operator: 'IS_TRUE' }] })
    expect(vip.status).toBe(201)
    const listNoValues = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'LIST', displayName: 'Farbe' })
    expect(listNoValues.body.errorFields).toEqual([{ field: 'values', errorType: 'REQUIRED' }])

    const fields = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields
    const first = fields.find((f: any) => f.defaultField === 'FIRST_NAME')
    const hideFirst = await admin.put(`/proxy/api/events/${eventId}/fields/${first.id}`, { ...first, appearance: 'HIDDEN' })
    expect(hideFirst.status).toBe(400)
    expect(hideFirst.body.errorFields).toEqual([{ field: 'appearance', errorType: 'FIELD_LOCKED' }])
    expect((await admin.delete(`/proxy/api/events/${eventId}/fields/${first.id}`)).body.errorType).toBe('FIELD_LOCKED')
    const email = fields.find((f: any) => f.defaultField === 'EMAIL')
    expect((await admin.delete(`/proxy/api/events/${eventId}/fields/${email.id}`)).status).toBe(409)
    const retype = await admin.put(`/proxy/api/events/${eventId}/fields/${txt.body.id}`, { ...txt.body, type: 'NUMBER' })
    expect(retype.body.errorFields).toEqual([{ field: 'type', errorType: 'TYPE_CHANGE_NOT_ALLOWED' }])

    // a default field only once
    const phone = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon' })
    expect(phone.status).toBe(201)
    const phone2 = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon' })
    expect(phone2.body.errorFields).toEqual([{ field: 'defaultField', errorType: 'DUPLICATE' }])
    // palette default fields can be removed again
    expect((await admin.delete(`/proxy/api/events/${eventId}/fields/${phone.body.id}`)).status).toBe(200)
  })

  test('the e-mail field is fixed for paid events', async () => {
    const { admin, eventId } = await setup()
    const fields = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields
    const email = fields.find((f: any) => f.defaultField === 'EMAIL')
    const optional = await admin.put(`/proxy/api/events/${eventId}/fields/${email.id}`, { ...email, appearance: 'VISIBLE' })
    expect(optional.status).toBe(200)
    await h().ctx.db.updateTable('event').set({ options: JSON.stringify(['PAID_EVENT']) }).where('id', '=', eventId).execute()
    const r = await admin.put(`/proxy/api/events/${eventId}/fields/${email.id}`, { ...email, appearance: 'HIDDEN' })
    expect(r.status).toBe(400)
    expect(r.body.errorFields).toEqual([{ field: 'appearance', errorType: 'FIELD_LOCKED' }])
    expect((await admin.get(`/proxy/api/events/${eventId}/fields`)).body.isPayedEvent).toBe(true)
  })

  test('capacity cannot drop below what guests hold, and held places block removal', async () => {
    const { admin, eventId } = await setup()
    const f = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TIMESLOT', displayName: 'Slot', timeslots: [{ displayName: 'A', capacity: 5 }] })
    await h().ctx.db.updateTable('timeslot').set({ taken: 3 }).where('id', '=', f.body.timeslots[0].id).execute()
    const lower = await admin.put(`/proxy/api/events/${eventId}/fields/${f.body.id}`, { ...f.body, timeslots: [{ ...f.body.timeslots[0], capacity: 2 }] })
    expect(lower.status).toBe(400)
    expect(lower.body.errorFields).toEqual([{ field: 'timeslots.0.capacity', errorType: 'CAPACITY_BELOW_TAKEN' }])
    const drop = await admin.put(`/proxy/api/events/${eventId}/fields/${f.body.id}`, { ...f.body, timeslots: [{ displayName: 'B', capacity: 5 }] })
    expect(drop.status).toBe(409)
    expect(drop.body.errorType).toBe('FIELD_IN_USE')
    expect((await admin.delete(`/proxy/api/events/${eventId}/fields/${f.body.id}`)).body.errorType).toBe('FIELD_IN_USE')
  })

  test('permissions: EVENT.EDIT for changes, other agencies get 404, guests 401', async () => {
    const { eventId } = await setup()
    const other = await h().admin()
    expect((await other.get(`/proxy/api/events/${eventId}/fields`)).status).toBe(404)
    expect((await other.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'x' })).status).toBe(404)
    expect((await h().request('GET', `/proxy/api/events/${eventId}/fields`)).status).toBe(401)
    // a check-in account may look but not edit
    const { admin, eventId: ownEvent } = await setup()
    const { ctx } = h()
    const userRow = await ctx.db.insertInto('app_user').values({ email: `checkin.${ownEvent}@example.org`, password_hash: await Bun.password.hash('Geheim123!'), status: 'OK', language: 'de' }).returning('id').executeTakeFirstOrThrow()
    const acc = await ctx.db.insertInto('account').values({ user_id: userRow.id, agency_id: admin.agencyId, user_role: 'AGENCY_CHECKIN' }).returning('id').executeTakeFirstOrThrow()
    const checkin = h().agent()
    const login = await checkin.post('/auth/login', { email: `checkin.${ownEvent}@example.org`, password: 'Geheim123!' })
    expect(login.status).toBe(200)
    checkin.headers['x-account-id'] = String(acc.id)
    expect((await checkin.get(`/proxy/api/events/${ownEvent}/fields`)).status).toBe(200)
    const denied = await checkin.post(`/proxy/api/events/${ownEvent}/fields`, { type: 'TEXT', displayName: 'x' })
    expect(denied.status).toBe(403)
    expect(denied.body.errorType).toBe('NO_PERMISSION')
  })

  test('the waiting-list setting', async () => {
    const { admin, eventId } = await setup()
    const r = await admin.put(`/proxy/api/events/${eventId}/form-settings`, { waitingList: true })
    expect(r.status).toBe(200)
    expect(r.body.waitingList).toBe(true)
    expect((await h().request('GET', `/proxy/api/public/events/${eventId}/form`)).body.waitingList).toBe(true)
  })

  test('the field API is described in the OpenAPI document', async () => {
    const r = await h().request('GET', '/proxy/api/openapi.json')
    expect(r.status).toBe(200)
    const paths = Object.keys(r.body.paths)
    for (const p of ['/proxy/api/events/{id}/fields', '/proxy/api/events/{id}/fields/{fieldId}', '/proxy/api/public/reservation/timeslot', '/proxy/api/asset']) expect(paths).toContain(p)
  })
})

forEachDialect('form definitions cache', (h, dialect) => {
  test('two databases in one process never share cached definitions of the same event id', async () => {
    // A second database in this process whose event has the same id (ids count from 1 everywhere).
    const other = await createHarness(dialect)
    try {
      const eventId = 424_242
      const setup = async (x: Harness, appearance: 'REQUIRED' | 'VISIBLE') => {
        const admin = await x.admin()
        const start = new Date(Date.now() + 7 * 86400_000).toISOString()
        await x.ctx.db.insertInto('event').values({ id: eventId, agency_id: admin.agencyId, display_name: 'Gleiche Id', start_date: start, end_date: start } as any).execute()
        const f = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'TEXT', displayName: 'Firma', appearance })
        expect(f.status).toBe(201)
        return f.body.id as number
      }
      const requiredHere = await setup(h(), 'REQUIRED')
      const optionalThere = await setup(other, 'VISIBLE')
      // same event id, same form_version, same field id: only the database tells them apart
      expect(optionalThere).toBe(requiredHere)
      const body = (email: string) => ({ body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email, identification: `cache${Math.random().toString(36).slice(2, 10)}` } })
      const here = await h().request('POST', `/api/public/events/${eventId}/registrations`, body(uniqueEmail('here')))
      expect(here.status).toBe(400)
      expect(here.body.errorType).toBe('FIELD_ERROR')
      const there = await other.request('POST', `/api/public/events/${eventId}/registrations`, body(uniqueEmail('there')))
      expect(there.status === 201 ? 201 : there.text).toBe(201)
      // and the other way round, with the second database's form now cached
      expect((await h().request('POST', `/api/public/events/${eventId}/registrations`, body(uniqueEmail('again')))).status).toBe(400)
    } finally {
      await other.close()
    }
  })
})

forEachDialect('copying an event copies its form', (h) => {
  test('fields with translations, values, groups, timeslots and remapped conditions; places start empty; the copy registers on its own ids', async () => {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody({ maxVisitors: 50 }))
    const eventId = ev.body.id as number
    const add = async (f: Record<string, unknown>) => {
      const r = await admin.post(`/proxy/api/events/${eventId}/fields`, f)
      expect(r.status).toBe(201)
      return r.body
    }
    const ws = await add({
      type: 'SMARTLIST',
      displayName: 'Workshop',
      translations: [{ language: 'en', displayName: 'Workshop (en)' }],
      hasDefinedGroups: true,
      definedGroups: [{ id: 'am', displayName: 'Vormittag' }],
      definedValues: [
        { displayName: 'Töpfern', capacity: 3, group: 'am', translations: [{ language: 'en', displayName: 'Pottery' }] },
        { displayName: 'Malen', capacity: -1, group: 'am' },
      ],
    })
    const slot = await add({ type: 'TIMESLOT', displayName: 'Anreise', timeslots: [{ displayName: '10:00', dateInfo: '12.12.', capacity: 2 }, { displayName: '11:00', capacity: 5 }] })
    const ifPottery = await add({ type: 'TEXT', displayName: 'Tonfarbe', appearance: 'REQUIRED', conditions: [{ fieldId: ws.id, operator: 'EQUALS', value: String(ws.definedValues[0].id) }] })
    await add({ type: 'YES_NO', displayName: 'Frühstück?', conditions: [{ fieldId: slot.id, operator: 'EQUALS', value: String(slot.timeslots[0].id) }, { fieldId: 'VIP', operator: 'IS_FALSE' }] })
    const list = await add({ type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegan'], customValue: true, multiple: true, settings: { hint: 'Bitte wählen' } })
    const fields = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields as any[]
    const title = fields.find((f) => f.defaultField === 'TITLE')
    expect((await admin.put(`/proxy/api/events/${eventId}/fields/${title.id}`, { ...title, appearance: 'HIDDEN' })).status).toBe(200)
    await admin.put(`/proxy/api/events/${eventId}/form-settings`, { waitingList: true })
    // a guest takes places in the source: the copy starts with none of them
    const reg = await h().request('POST', '/proxy/api/public/reservation/timeslot', { body: { timeslotId: slot.timeslots[0].id, identification: 'copy-source-visitor-1', amount: 1 } })
    expect(reg.body.succeeded).toBe(true)
    const r = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, {
      body: { salutation: 'Frau', firstName: 'Q', lastName: 'Quelle', email: uniqueEmail('src'), identification: 'copy-source-visitor-1', fields: { [ws.id]: [{ fieldValueId: ws.definedValues[0].id, amount: 1 }], [ifPottery.id]: 'rot', [slot.id]: [{ timeslotId: slot.timeslots[0].id, amount: 1, reservationToken: reg.body.reservationToken }] } },
    })
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    const before = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body

    const copy = await admin.post(`/proxy/api/events/${eventId}/copy`, { displayName: 'Kopie' })
    expect(copy.status).toBe(201)
    // a copy starts offline (issue 10); published, guests register on it
    await h().ctx.db.updateTable('event').set({ visibility: 'PUBLIC' }).where('id', '=', copy.body.id).execute()
    const copied = (await admin.get(`/proxy/api/events/${copy.body.id}/fields`)).body
    expect(copied.waitingList).toBe(true)
    expect(copied.formVersion).toBeGreaterThan(0)
    // same form, new ids
    const strip = (fs: any[]) => fs.map(({ id: _i, conditions, definedValues, timeslots, ...f }: any) => ({ ...f, conditions: conditions.length, definedValues: definedValues.map(({ id: _v, freeValue: _f, ...v }: any) => v), timeslots: timeslots.map(({ id: _s, freeSlots: _f, ...s }: any) => s) }))
    expect(strip(copied.fields)).toEqual(strip(before.fields))
    const srcIds = new Set(before.fields.map((f: any) => f.id))
    expect(copied.fields.some((f: any) => srcIds.has(f.id))).toBe(false)
    const byName = (n: string) => copied.fields.find((f: any) => f.displayName === n)
    const [cws, cslot, cPottery, cEarly] = [byName('Workshop'), byName('Anreise'), byName('Tonfarbe'), byName('Frühstück?')]
    expect(cws.translations).toEqual([{ language: 'en', displayName: 'Workshop (en)' }])
    expect(cws.definedValues.map((v: any) => [v.displayName, v.freeValue, v.group, v.translations])).toEqual([
      ['Töpfern', 3, 'am', [{ language: 'en', displayName: 'Pottery' }]],
      ['Malen', -1, 'am', []],
    ])
    expect(cslot.timeslots.map((s: any) => [s.displayName, s.dateInfo, s.freeSlots])).toEqual([
      ['10:00', '12.12.', 2],
      ['11:00', null, 5],
    ])
    expect(cPottery.conditions).toEqual([{ fieldId: cws.id, operator: 'EQUALS', value: String(cws.definedValues[0].id) }])
    expect(cEarly.conditions).toEqual([
      { fieldId: cslot.id, operator: 'EQUALS', value: String(cslot.timeslots[0].id) },
      { fieldId: 'VIP', operator: 'IS_FALSE' },
    ])
    expect(byName('Essen')).toMatchObject({ values: ['Fleisch', 'Vegan'], customValue: true, multiple: true, settings: { hint: 'Bitte wählen' } })
    expect(copied.fields.find((f: any) => f.defaultField === 'TITLE').appearance).toBe('HIDDEN')
    expect(list.id).not.toBe(byName('Essen').id)
    // the source keeps its places; the copy has no reservations
    expect((await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields.find((f: any) => f.id === slot.id).timeslots[0].freeSlots).toBe(1)
    expect(await h().ctx.db.selectFrom('timeslot_reservation').select('id').where('event_id', '=', copy.body.id).execute()).toEqual([])

    // the copy's form works on its own ids: the remapped condition makes Tonfarbe required
    const missing = await h().request('POST', `/proxy/api/public/events/${copy.body.id}/registrations`, {
      body: { salutation: 'Frau', firstName: 'K', lastName: 'Kopie', email: uniqueEmail('copy'), fields: { [cws.id]: [{ fieldValueId: cws.definedValues[0].id, amount: 1 }] } },
    })
    expect(missing.body.errorFields).toEqual([{ field: `fields.${cPottery.id}`, errorType: 'REQUIRED' }])
    const ok = await h().request('POST', `/proxy/api/public/events/${copy.body.id}/registrations`, {
      body: { salutation: 'Frau', firstName: 'K', lastName: 'Kopie', email: uniqueEmail('copy'), fields: { [cws.id]: [{ fieldValueId: cws.definedValues[0].id, amount: 1 }], [cPottery.id]: 'blau' } },
    })
    expect(ok.status === 201 ? 201 : ok.text).toBe(201)
    const taken = await h().ctx.db.selectFrom('field_value').select(['id', 'taken']).where('field_id', 'in', [ws.id, cws.id]).orderBy('id').execute()
    expect(taken.map((t) => t.taken)).toEqual([1, 0, 1, 0])
  })

  test('an event whose form was never opened copies to the default form', async () => {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody())
    const copy = await admin.post(`/proxy/api/events/${ev.body.id}/copy`, {})
    expect(copy.status).toBe(201)
    await h().ctx.db.updateTable('event').set({ visibility: 'PUBLIC' }).where('id', '=', copy.body.id).execute()
    const pub = await h().request('GET', `/proxy/api/public/events/${copy.body.id}/form`)
    expect(pub.body.fields.slice(0, 5).map((f: any) => f.defaultField)).toEqual(['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL'])
    expect(await h().ctx.db.selectFrom('event_field').select('id').where('event_id', '=', copy.body.id).execute()).toEqual([])
  })
})

forEachDialect('label translations', (h) => {
  test('every language of 9.1 but German may be translated; other codes are refused', async () => {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody())
    const add = (translations: unknown) => admin.post(`/proxy/api/events/${ev.body.id}/fields`, { type: 'TEXT', displayName: 'Firma', translations })
    const ok = await add([
      { language: 'fr', displayName: 'Société' },
      { language: 'de-ls', displayName: 'Die Firma' },
      { language: 'zh', displayName: '公司' },
    ])
    expect(ok.status).toBe(201)
    expect(ok.body.translations.map((t: any) => t.language)).toEqual(['fr', 'de-ls', 'zh'])
    for (const language of ['de', 'xx', 'EN']) {
      const bad = await add([{ language, displayName: 'X' }])
      expect([language, bad.status, bad.body.errorFields?.[0]?.field]).toEqual([language, 400, 'translations.0.language'])
    }
  })
})
