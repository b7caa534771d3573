// Hostile: the public form taking over the organiser's entries. Knowing an invited guest's e-mail is
// not enough: an entry becomes the guest's registration only through the guest's own link (the
// entry's event token, an access link or session of that guest); the organiser's DECLINED stands.
import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../testing/harness'
import { addGuest, createEvent } from '../testing/organiser'
import { publicRegister } from './fixtures'

forEachDialect('security: taking over the organiser\'s entries', (h) => {
  const row = (id: number) => h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const seats = async (eventId: number) => (await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()).seats_taken

  test('a stranger who knows an invited guest\'s e-mail gets ALREADY_INVITED (German) and changes nothing, for every organiser-made status', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 10 })
    for (const status of ['ADDED', 'INVITED', 'OPEN', 'VISITOR_DECLINED', 'DELETED'] as const) {
      const g = await addGuest(admin, e.id, { firstName: 'Echt', vip: true })
      await h().ctx.db.updateTable('event_visitor').set({ status }).where('id', '=', g.id).execute()
      const r = await publicRegister(h(), e.id, { email: g.email.toUpperCase(), firstName: 'Fälscher', escortPersons: [{ firstName: 'X', lastName: 'Y' }] })
      expect([status, r.status, r.body.errorType]).toEqual([status, 409, 'ALREADY_INVITED'])
      expect(r.body.errorMessage).toContain('Gästeliste')
      expect(r.body.errorFields).toEqual([{ field: 'email', errorType: 'ALREADY_INVITED' }])
      const v = await row(g.id)
      expect([v.status, v.first_name, v.vip, v.visitor_count, v.seats_held]).toEqual([status, 'Echt', 1, 1, 0])
    }
    expect(await seats(e.id)).toBe(0)
  })

  test('another guest\'s link or session does not help; the guest\'s own event token, access link or login does', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const victim = await addGuest(admin, e.id, { firstName: 'Echt' })
    const other = await addGuest(admin, e.id, { firstName: 'Andere' })
    // the other guest's own event token
    const foreign = await publicRegister(h(), e.id, { email: victim.email }, { 'x-guest-token': (await row(other.id)).event_token })
    expect(foreign.body.errorType).toBe('ALREADY_INVITED')
    // a made-up token
    expect((await publicRegister(h(), e.id, { email: victim.email }, { 'x-guest-token': 'x'.repeat(20) })).body.errorType).toBe('ALREADY_INVITED')
    // a logged-in organiser of the agency (not the guest) on the public form
    expect((await admin.post(`/proxy/api/public/events/${e.id}/registrations`, { salutation: 'Frau', firstName: 'A', lastName: 'B', email: victim.email })).body.errorType).toBe('ALREADY_INVITED')
    expect((await row(victim.id)).status).toBe('ADDED')
    // the guest's own invitation (event token) works
    const ok = await publicRegister(h(), e.id, { email: victim.email, firstName: 'Selbst' }, { 'x-guest-token': (await row(victim.id)).event_token })
    expect(ok.status === 201 ? 201 : ok.text).toBe(201)
    expect(ok.body.visitorId).toBe(victim.id)
    expect((await row(victim.id)).first_name).toBe('Selbst')
  })

  test('the guest\'s access link (invitation mail) lets them register over their entry', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { displayName: 'Gala' })
    const g = await addGuest(admin, e.id, { email: uniqueEmail('invited') })
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
    let mail
    for (let i = 0; i < 20 && !mail; i++) {
      await h().deliverMail()
      mail = h().smtp.mails.find((m: any) => m.to.includes(g.email))
    }
    const token = new URL(mail!.text.match(/https?:\/\/\S+\/guest\/dashboard\?token=\S+/)![0]).searchParams.get('token')!
    const r = await publicRegister(h(), e.id, { email: g.email }, { 'x-guest-token': token })
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    expect((await row(g.id)).status).toBe('CONFIRMED')
  })

  test('a guest the organiser DECLINED cannot make themselves CONFIRMED, not even with their own link (REGISTRATION_DECLINED)', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 5 })
    const email = uniqueEmail('declined')
    const first = await publicRegister(h(), e.id, { email })
    expect(first.status).toBe(201)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${first.body.visitorId}/decline`, { notify: false })).body.status).toBe('DECLINED')
    for (const headers of [{} as Record<string, string>, { 'x-guest-token': (await row(first.body.visitorId)).event_token }]) {
      const r = await publicRegister(h(), e.id, { email, firstName: 'Nochmal' }, headers)
      expect([r.status, r.body.errorType]).toEqual([409, 'REGISTRATION_DECLINED'])
      expect(r.body.errorMessage).toContain('abgelehnt')
    }
    expect([(await row(first.body.visitorId)).status, await seats(e.id)]).toEqual(['DECLINED', 0])
  })
})
