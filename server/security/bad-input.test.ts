// Bad input gets a clear 4xx in the spec's error shape ({status, errorType, errorMessage …}), never a
// 500, and nothing is half-written: malformed cookies, CR/LF in a redirect, JSON nested 200,000 deep,
// malformed and binary CSV files, NUL bytes in any text (Postgres refuses them in text columns), and
// time zone names Intl does not know (stored rows of such events still answer their statistics and mails).
import { expect, test } from 'bun:test'
import { type Agent, eventBody, forEachDialect, uniqueEmail } from '../testing/harness'
import { createEvent } from '../testing/organiser'

const errorShape = (r: { status: number; body: any }, status: number) => {
  expect(r.status).toBe(status)
  expect(r.body.status).toBe(status)
  expect(typeof r.body.errorType).toBe('string')
  expect(typeof r.body.errorMessage).toBe('string')
}

forEachDialect('bad input never answers 500', (h) => {
  let admin: Agent & { agencyId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  test('a malformed session cookie is "not logged in" (401), not a 500', async () => {
    for (const cookie of ['einlass_session=%E0%A4%A', 'einlass_session=%', 'einlass_session=%%%; x=1', `einlass_session=${'a'.repeat(5000)}`]) {
      const r = await h().request('GET', '/userDetails', { headers: { cookie } })
      errorShape(r, 401)
      const api = await h().request('GET', '/proxy/api/events', { headers: { cookie } })
      expect(api.status).toBeLessThan(500)
      expect(api.status).toBeGreaterThanOrEqual(400)
    }
  })

  test('CR/LF in a redirect parameter: a redirect, never a 500 or a split header', async () => {
    for (const q of ['%0d%0aSet-Cookie:%20x=1', '/events%0d%0aLocation:%20https://evil.example', '%E0%A4%A', '/%0a/evil.example']) {
      const r = await h().request('GET', `/logout?redirect=${q}`)
      expect(r.status).toBeLessThan(500)
      expect(r.headers.get('set-cookie') ?? '').not.toContain('x=1')
      const loc = r.headers.get('location') ?? ''
      expect(loc).not.toMatch(/[\r\n]/)
    }
  })

  test('a JSON body nested 200,000 deep: 400 INVALID_JSON, never a stack overflow', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000)
    const deepObj = '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)
    for (const body of [deep, deepObj, `{"email":"a@b.de","password":${deep}}`]) {
      for (const path of ['/auth/login', '/proxy/api/events', `/proxy/api/public/events/1/registrations`]) {
        const res = await h().app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-account-id': admin.headers['x-account-id'] }, body }))
        const r = { status: res.status, body: await res.json() }
        errorShape(r, 400)
        expect(r.body.errorType).toBe('INVALID_JSON')
      }
    }
    // a deep value inside an open record (form field answers) is refused the same way
    const fields = '{"f1":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}'
    const res = await h().app.handle(new Request('http://localhost/proxy/api/public/events/1/registrations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"firstName":"A","fields":${fields}}` }))
    expect(res.status).toBe(400)
  })

  test('malformed and binary CSV uploads: 400 with a field error, nothing stored', async () => {
    const e = await createEvent(admin)
    const before = Number((await h().ctx.db.selectFrom('import_file').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const binary = new Uint8Array(4096)
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919 + 13) % 256
    const cases: Array<[string, BlobPart]> = [
      ['unclosed quote', 'Vorname;Nachname\n"Anna;Adler\nBernd;Bär\n'],
      ['quote inside a field', 'Vorname;Nachname\nAn"na;Adler\n'],
      ['binary', binary],
      ['NUL bytes', 'Vorname;Nachname\nAn\u0000na;Adler\n'],
      ['a zip file', new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(100)])],
    ]
    for (const [name, content] of cases) {
      const form = new FormData()
      form.append('file', new File([content], 'gaeste.csv', { type: 'text/csv' }))
      const r = await admin.request('POST', `/proxy/api/events/${e.id}/imports`, { form })
      if (r.status !== 400) throw new Error(`${name}: ${r.status} ${r.text}`)
      errorShape(r, 400)
      expect(r.body.errorFields).toEqual([{ field: 'file', errorType: 'IMPORT_UNREADABLE' }])
    }
    const after = Number((await h().ctx.db.selectFrom('import_file').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    expect(after).toBe(before)
  })

  test('a NUL byte in any text (body, query, path, form field) is refused at validation, on both dialects', async () => {
    const r = await admin.post('/proxy/api/events', eventBody({ displayName: 'Som\u0000merfest' }))
    errorShape(r, 400)
    expect(r.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'displayName', errorType: 'INVALID_CHARACTERS' }] })
    const e = await createEvent(admin)
    const reg = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Gre\u0000te', lastName: 'Gast', email: uniqueEmail('nul'), escortPersons: [{ firstName: 'E\u0000', lastName: 'B' }] } })
    errorShape(reg, 400)
    expect(reg.body.errorFields).toEqual([
      { field: 'firstName', errorType: 'INVALID_CHARACTERS' },
      { field: 'escortPersons.0.firstName', errorType: 'INVALID_CHARACTERS' },
    ])
    const login = await h().request('POST', '/auth/login', { body: { email: 'a\u0000@b.de', password: 'x\u0000' } })
    errorShape(login, 400)
    const search = await admin.get(`/proxy/api/events/${e.id}/visitors?search=a%00b`)
    errorShape(search, 400)
    const path = await h().request('GET', '/proxy/api/public/shortlinks/ab%00c')
    expect(path.status).toBeGreaterThanOrEqual(400)
    expect(path.status).toBeLessThan(500)
    const guests = await h().ctx.db.selectFrom('event_visitor').select('id').where('event_id', '=', e.id).execute()
    expect(guests).toEqual([])
  })

  test('an unknown time zone is refused on write; an event already stored with one still answers statistics and mails', async () => {
    for (const timezone of ['Mars/Olympus_Mons', 'x'.repeat(64), '../../etc', 'Europe/Berlin ']) {
      const r = await admin.post('/proxy/api/events', eventBody({ timezone }))
      errorShape(r, 400)
      expect(r.body.errorFields).toEqual([{ field: 'timezone', errorType: 'INVALID_TIMEZONE' }])
    }
    const e = await createEvent(admin)
    const patch = await admin.put(`/proxy/api/events/${e.id}`, eventBody({ timezone: 'Mond/Krater' }))
    expect(patch.status).toBe(400)
    // a row written before the check (or by hand)
    await h().ctx.db.updateTable('event').set({ timezone: 'Mond/Krater' }).where('id', '=', e.id).execute()
    const email = uniqueEmail('tz')
    const reg = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email } })
    expect(reg.status).toBe(201)
    const stats = await admin.get(`/proxy/api/events/${e.id}/statistics`)
    expect(stats.status).toBe(200)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.subject).toContain('Sommerfest')
  })
})
