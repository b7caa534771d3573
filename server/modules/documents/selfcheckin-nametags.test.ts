// The self check-in dialog's "name tags download" (guest-side.md 2): prepareCheckin names the
// name-tags PDF of the registration (it never did: no module filled checkin/self.ts's token parts, so
// the button never showed), and the link serves name tags with every person's name, not the ticket.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { pdfText } from './test-helpers'

forEachDialect('self check-in: name tags download', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  async function fetchRaw(path: string) {
    const res = await h().app.handle(new Request(`http://localhost${path}`, { redirect: 'manual' }))
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
  }
  const prepare = async (visitorId: number) => {
    const row = await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', visitorId).executeTakeFirstOrThrow()
    const r = await h().agent().post('/proxy/api/guest/prepareCheckin', { token: row.event_token })
    expect(r.status).toBe(200)
    return r.body
  }

  test('a registered guest: the link serves the name tags PDF with the guest and the escorts', async () => {
    const e = await createEvent(admin, { allowSelfCheckin: true, displayName: 'Tagung Nord' })
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', firstName: 'Nora', lastName: 'Namensschild', escortPersons: [{ firstName: 'Emil', lastName: 'Begleiter' }] })
    const view = await prepare(g.id)
    expect(view.tokens.downloadLinkNameTags).toBe(`/proxy/api/download/${view.tokens.downloadToken}/nameTags`)
    expect(view.tokens.downloadTokenNameTags).toBe(view.tokens.downloadToken)
    const pdf = await fetchRaw(view.tokens.downloadLinkNameTags)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toContain(encodeURIComponent('Namensschilder Tagung Nord.pdf'))
    const text = await pdfText(pdf.bytes)
    // a long name wraps on its tag: the words, each
    for (const word of ['Nora', 'Namensschild', 'Gast', 'Emil Begleiter', 'Begleitperson 1']) expect(text).toContain(word)
  })

  test('no name tags for a registration without tickets (the download would refuse it)', async () => {
    const e = await createEvent(admin, { allowSelfCheckin: true })
    const g = await addGuest(admin, e.id)
    await h().ctx.db.updateTable('event_visitor').set({ status: 'INVITED' }).where('id', '=', g.id).execute()
    const view = await prepare(g.id)
    expect(view.tokens.downloadLinkNameTags).toBeUndefined()
    expect((await fetchRaw(`/proxy/api/download/${view.tokens.downloadToken}/nameTags`)).status).toBe(404)
  })
})
