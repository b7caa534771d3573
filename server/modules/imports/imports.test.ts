import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { linkIn } from '../../testing/smtp-sink'

const CSV = `Anrede;Vorname;Nachname;E-Mail;Firma;VIP;Tags;Begleitung 1 Vorname;Begleitung 1 Nachname
Frau;Anna;Adler;anna@example.org;ACME;ja;Presse|Nord;Eva;Escort
Herr;Bernd;Bär;bernd@example.org;;;Presse;;
;Carla;;carla@example.org;;;;;
Frau;Dora;Dach;kaputt;;;;;
Herr;Emil;Ernst;anna@example.org;;;;;
`

async function upload(agent: Agent, eventId: number, text: string, name = 'gaeste.csv') {
  const form = new FormData()
  form.append('file', new File([text], name, { type: 'text/csv' }))
  return agent.request('POST', `/proxy/api/events/${eventId}/imports`, { form })
}

forEachDialect(
  'CSV import, export and invitations',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    test('setup', async () => {
      admin = await h().admin()
    })
    const runTask = async (id: number) => {
      await h().tasks.runOnce()
      return (await admin.get(`/proxy/api/tasks/${id}`)).body
    }

    test('upload: headers, sample, row count, suggested mapping (German headers, ; detected)', async () => {
      const e = await createEvent(admin)
      const r = await upload(admin, e.id, CSV)
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ delimiter: ';', rowCount: 5, headers: ['Anrede', 'Vorname', 'Nachname', 'E-Mail', 'Firma', 'VIP', 'Tags', 'Begleitung 1 Vorname', 'Begleitung 1 Nachname'] })
      expect(r.body.suggestedMapping).toEqual({ salutation: 0, firstName: 1, lastName: 2, email: 3, company: 4, vip: 5, tags: 6, escort1FirstName: 7, escort1LastName: 8 })
      expect(r.body.sample).toHaveLength(5)
      const empty = await upload(admin, e.id, 'Vorname;Nachname\n')
      expect(empty.status).toBe(400)
      expect(empty.body.errorFields).toEqual([{ field: 'file', errorType: 'IMPORT_EMPTY' }])
    })

    test('dry run reports bad rows with line numbers and imports nothing; a real run with bad rows fails whole', async () => {
      const e = await createEvent(admin)
      await addGuest(admin, e.id, { email: 'bernd@example.org' })
      const up = (await upload(admin, e.id, CSV)).body
      const dry = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/dry-run`, { mapping: up.suggestedMapping })
      expect(dry.status).toBe(202)
      expect(dry.body.status).toBe('WAIT')
      const done = await runTask(dry.body.id)
      expect(done).toMatchObject({ status: 'FINISHED', taskInfo: { currentCount: 5, totalCount: 5, errorCount: 4 } })
      expect(done.result).toMatchObject({ dryRun: true, rows: 5, valid: 1, invalid: 4, imported: 0 })
      expect(done.result.errors).toEqual([
        { line: 3, field: 'email', errorType: 'ALREADY_REGISTERED' },
        { line: 4, field: 'lastName', errorType: 'REQUIRED' },
        { line: 5, field: 'email', errorType: 'INVALID_EMAIL' },
        { line: 6, field: 'email', errorType: 'DUPLICATE_IN_FILE' },
      ])
      const run = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/run`, { mapping: up.suggestedMapping })
      const failed = await runTask(run.body.id)
      expect(failed).toMatchObject({ status: 'ERROR', taskInfo: { state: 'IMPORT_HAS_INVALID_ROWS' } })
      expect(failed.result.invalid).toBe(4)
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.total).toBe(1)
    })

    test('skipInvalid imports the valid rows with escorts, VIP, tags; CONFIRMED takes places', async () => {
      const e = await createEvent(admin, { maxVisitors: 10 })
      const up = (await upload(admin, e.id, CSV)).body
      const run = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/run`, { mapping: up.suggestedMapping, skipInvalid: true, defaultStatus: 'CONFIRMED' })
      const done = await runTask(run.body.id)
      expect(done).toMatchObject({ status: 'FINISHED', taskInfo: { state: 'IMPORTED:2:3' } })
      const list = (await admin.post(`/proxy/api/events/${e.id}/visitors/search`, {})).body
      expect(list.items.map((v: any) => [v.firstName, v.status, v.vip, v.visitorCount, v.source, v.tags.map((t: any) => t.displayName)])).toEqual([
        ['Anna', 'CONFIRMED', true, 2, 'IMPORT', ['Nord', 'Presse']],
        ['Bernd', 'CONFIRMED', false, 1, 'IMPORT', ['Presse']],
      ])
      const ev = (await admin.get(`/proxy/api/events/${e.id}`)).body
      expect(ev.seatsTaken).toBe(3)
    })

    test('a CONFIRMED import beyond the capacity imports nothing (EVENT_FULL)', async () => {
      const e = await createEvent(admin, { maxVisitors: 2 })
      const up = (await upload(admin, e.id, CSV)).body
      const run = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/run`, { mapping: up.suggestedMapping, skipInvalid: true, defaultStatus: 'CONFIRMED' })
      const done = await runTask(run.body.id)
      expect(done).toMatchObject({ status: 'ERROR', taskInfo: { state: 'EVENT_FULL' } })
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.total).toBe(0)
      expect((await admin.get(`/proxy/api/events/${e.id}`)).body.seatsTaken).toBe(0)
    })

    test('a failure after batches were written removes every row of the import and gives the places back', async () => {
      const e = await createEvent(admin, { maxVisitors: 550 })
      const rows = Array.from({ length: 600 }, (_, i) => `Gast${i};Nummer${i};g${i}@batch.example`)
      const up = (await upload(admin, e.id, ['Vorname;Nachname;E-Mail', ...rows].join('\n'))).body
      const run = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/run`, { mapping: up.suggestedMapping, defaultStatus: 'CONFIRMED' })
      const done = await runTask(run.body.id)
      expect(done).toMatchObject({ status: 'ERROR', taskInfo: { state: 'EVENT_FULL' } })
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.total).toBe(0)
      expect((await admin.get(`/proxy/api/events/${e.id}`)).body.seatsTaken).toBe(0)
      const ok = await admin.post(`/proxy/api/events/${e.id}/imports/${up.id}/run`, { mapping: up.suggestedMapping, defaultStatus: 'ADDED' })
      expect((await runTask(ok.body.id)).taskInfo.state).toBe('IMPORTED:600:0')
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.total).toBe(600)
    })

    test('mapping needs first and last name; Windows-1252 files are read; other agencies 404', async () => {
      const e = await createEvent(admin)
      const latin = new Uint8Array([...new TextEncoder().encode('Vorname,Nachname\nJ'), 0xfc, ...new TextEncoder().encode('rgen,M'), 0xfc, ...new TextEncoder().encode('ller\n')])
      const form = new FormData()
      form.append('file', new File([latin], 'latin.csv'))
      const up = await admin.request('POST', `/proxy/api/events/${e.id}/imports`, { form })
      expect(up.body).toMatchObject({ delimiter: ',', sample: [['Jürgen', 'Müller']] })
      const bad = await admin.post(`/proxy/api/events/${e.id}/imports/${up.body.id}/run`, { mapping: { email: 0 } })
      expect(bad.status).toBe(400)
      expect(bad.body.errorFields).toEqual(expect.arrayContaining([{ field: 'mapping.firstName', errorType: 'REQUIRED' }]))
      const other = await h().admin()
      expect((await other.post(`/proxy/api/events/${e.id}/imports/${up.body.id}/run`, { mapping: { firstName: 0, lastName: 1 } })).status).toBe(404)
      expect((await other.get(`/proxy/api/tasks/${(await admin.post(`/proxy/api/events/${e.id}/imports/${up.body.id}/dry-run`, { mapping: { firstName: 0, lastName: 1 } })).body.id}`)).status).toBe(404)
    })

    test('export: the filtered list as ;-separated CSV with BOM', async () => {
      const e = await createEvent(admin)
      await addGuest(admin, e.id, { firstName: 'Anna', lastName: 'Adler', vip: true, escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
      await addGuest(admin, e.id, { firstName: 'Bernd', lastName: 'Bär; "B"' })
      const r = await admin.get(`/proxy/api/events/${e.id}/visitors/export`)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toContain('text/csv')
      expect(r.headers.get('content-disposition')).toContain(`gaeste-${e.id}.csv`)
      const raw = await h().app.handle(
        new Request(`http://localhost/proxy/api/events/${e.id}/visitors/export`, { headers: { ...admin.headers, cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } }),
      )
      expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      const lines = r.text.trim().split('\n')
      expect(lines[0]).toStartWith('Anrede;Titel;Vorname;Nachname;E-Mail')
      expect(lines).toHaveLength(3)
      expect(lines[1]).toContain('Anna;Adler')
      expect(lines[1]).toContain(';ja;')
      expect(lines[1]).toContain('Eva;Escort')
      expect(lines[2]).toContain('"Bär; ""B"""')
      const vip = await admin.get(`/proxy/api/events/${e.id}/visitors/export?vipFilter=ONLY_VIP`)
      expect(vip.text.trim().split('\n')).toHaveLength(2)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', admin.accountId).execute()
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors/export`)).status).toBe(403)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_ADMIN' }).where('id', '=', admin.accountId).execute()
    })

    test('invitations to a filtered list: mails with dashboard links, errors counted, progress', async () => {
      const e = await createEvent(admin, { displayName: 'Empfang' })
      const tag = (await admin.post('/proxy/api/tags', { displayName: 'Einladen' })).body
      const a = await addGuest(admin, e.id, { tags: [tag.id] })
      await addGuest(admin, e.id, { email: null, tags: [tag.id] })
      const c = await addGuest(admin, e.id, { tags: [tag.id], status: 'CONFIRMED' })
      await addGuest(admin, e.id)
      const r = await admin.post(`/proxy/api/events/${e.id}/invitations`, { filter: { tags: [tag.id] } })
      expect(r.status).toBe(202)
      expect(r.body.taskInfo.totalCount).toBe(3)
      const done = await runTask(r.body.id)
      expect(done).toMatchObject({ status: 'FINISHED', taskInfo: { currentCount: 3, errorCount: 2, state: 'INVITED:1:2' } })
      expect(done.result).toEqual({ sent: 1, failed: 2, reasons: { NO_EMAIL: 1, STATUS_TRANSITION_NOT_ALLOWED: 1 } })
      await h().deliverMail()
      const mail = await h().smtp.waitFor((m) => m.to.includes(a.email))
      expect(mail.subject).toBe('Einladung: Empfang')
      const token = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
      const dash = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })
      expect(dash.body.invitedEvents.map((x: any) => x.id)).toEqual([a.id])
      expect(h().smtp.to(c.email)).toHaveLength(0)
      const nobody = await admin.post(`/proxy/api/events/${e.id}/invitations`, { filter: { statuses: ['DELETED'] } })
      expect(nobody.status).toBe(409)
      expect(nobody.body.errorType).toBe('NO_GUESTS_TO_INVITE')
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
