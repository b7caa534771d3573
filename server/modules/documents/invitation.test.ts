// The invitation PDF (issue 20, item 17): reachable from the guest's dashboard (invited and pending
// entries carry its token and link) and from the organiser's guest detail (the same prepare call,
// answered for the organiser's own agency only); read back with pdftotext.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { createUser, loginAs } from '../identity/test-helpers'
import { guestWithToken, pdfText } from './test-helpers'

forEachDialect('invitation PDF: dashboard and organiser', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin({ agency: 'Agentur Süd' })
  })
  async function fetchRaw(path: string) {
    const res = await h().app.handle(new Request(`http://localhost${path}`))
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
  }

  test('invited and pending dashboard entries carry the invitation link; the guest\'s dialog prepares it and the PDF reads back', async () => {
    const e = await createEvent(admin, { displayName: 'Neujahrsempfang' })
    const g = await guestWithToken(h(), admin, e.id, { firstName: 'Ilse', lastName: 'Invite', escortPersons: [] })
    await h().ctx.db.updateTable('event_visitor').set({ status: 'INVITED' }).where('id', '=', g.id).execute()
    const entry = (await g.guest.get('/proxy/api/guest/events')).body.invitedEvents.find((x: any) => x.id === g.id)
    expect(entry.tokens.downloadLinkInvitation).toMatch(/^\/proxy\/api\/download\/[a-z2-7]{32}\/invitation$/)
    expect(entry.tokens.downloadLinkTicket).toBeUndefined()
    const prep = await g.guest.post(`/proxy/api/guest/${g.id}/prepareDownloadInvitation`, {})
    expect(prep.status).toBe(200)
    expect(prep.body).toMatchObject({ status: 'DONE', pending: false, downloadLink: entry.tokens.downloadLinkInvitation })
    const pdf = await fetchRaw(prep.body.downloadLink)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const text = await pdfText(pdf.bytes)
    for (const s of ['EINLADUNG', 'Neujahrsempfang', 'Ilse Invite', 'Sie sind herzlich eingeladen.']) expect(text).toContain(s)

    // a pending registration (a place held, to be confirmed) offers it too
    await h().ctx.db.updateTable('event_visitor').set({ status: 'PENDING' }).where('id', '=', g.id).execute()
    const pending = (await g.guest.get('/proxy/api/guest/events')).body.pendingEvents.find((x: any) => x.id === g.id)
    expect(pending.tokens.downloadLinkInvitation).toBe(entry.tokens.downloadLinkInvitation)
    // a declined one does not, and its link is dead
    await h().ctx.db.updateTable('event_visitor').set({ status: 'VISITOR_DECLINED' }).where('id', '=', g.id).execute()
    const declined = (await g.guest.get('/proxy/api/guest/events')).body.declinedEvents.find((x: any) => x.id === g.id)
    expect(declined.tokens).toEqual({})
    expect((await fetchRaw(entry.tokens.downloadLinkInvitation)).status).toBe(404)
  })

  test('the organiser\'s guest detail prepares the invitation of its own guests; other agencies get 404, strangers 401', async () => {
    const e = await createEvent(admin, { displayName: 'Sommerfest' })
    const added = await addGuest(admin, e.id, { salutation: 'Herr', firstName: 'Otto', lastName: 'Organisiert' })
    const prep = await admin.post(`/proxy/api/guest/${added.id}/prepareDownloadInvitation`, {})
    expect(prep.status).toBe(200)
    expect(prep.body).toMatchObject({ status: 'DONE', pending: false })
    expect(prep.body.downloadLink).toMatch(/\/invitation$/)
    const text = await pdfText((await fetchRaw(prep.body.downloadLink)).bytes)
    for (const s of ['EINLADUNG', 'Sommerfest', 'Otto Organisiert']) expect(text).toContain(s)
    // the desk role sees guests and may print it; another agency's organiser may not
    const other = await h().admin({ agency: 'Fremde Agentur' })
    const foreign = await other.post(`/proxy/api/guest/${added.id}/prepareDownloadInvitation`, {})
    expect(foreign.status).toBe(404)
    expect(foreign.body.errorType).toBe('NOT_FOUND')
    expect((await h().request('POST', `/proxy/api/guest/${added.id}/prepareDownloadInvitation`, { body: {} })).status).toBe(401)
    // a guest who is not this registration's cannot
    const stranger = await createUser(h(), { password: 'Geheim123!' })
    const s = await loginAs(h(), { email: stranger.email, password: 'Geheim123!' })
    expect((await s.post(`/proxy/api/guest/${added.id}/prepareDownloadInvitation`, {})).status).toBe(404)
    // a declined guest has no invitation
    await h().ctx.db.updateTable('event_visitor').set({ status: 'DECLINED' }).where('id', '=', added.id).execute()
    expect((await admin.post(`/proxy/api/guest/${added.id}/prepareDownloadInvitation`, {})).status).toBe(404)
  })
})
