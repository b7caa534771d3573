// The agency logo (guest-side.md 2, shell): set by the agency's administrators from their own image
// upload, served openly for guest and public pages, shown in the guest shell and on the event page.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { smallPng, uploadForm, anonymousUpload } from '../../security/fixtures'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { createUser, loginAs } from '../identity/test-helpers'
import { guestWithToken, pdfImages } from '../documents/test-helpers'

forEachDialect('agency logo', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin({ agency: 'Stadtwerke Beispiel' })
  })
  const upload = async (agent: Agent, bytes: Uint8Array, name = 'logo.png', type = 'LOGO') => {
    const r = await agent.request('POST', '/api/asset', { form: uploadForm(bytes, name, { type, secure: 'true' }) })
    expect(r.status).toBe(201)
    return r.body as { id: number }
  }

  /** registers on the public page; the guest's agent with the mail link's token */
  async function guestOf(eventId: number) {
    const email = uniqueEmail('brand')
    const r = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Lia', lastName: 'Logo', email } })
    expect(r.status).toBe(201)
    const v = await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    const guest = h().agent()
    guest.headers['x-guest-token'] = await issueAccessToken(h().ctx, h().ctx.db, v.user_id!, GUEST_ACCESS)
    return { guest, userId: v.user_id! }
  }

  test('an administrator sets the logo from an own (even secure) image; it is served openly and the event page and guest shell name it', async () => {
    expect((await admin.get('/proxy/api/agency/logo')).body).toEqual({ logoAssetId: null, logoPath: null })
    const e = await createEvent(admin, { displayName: 'Sommerfest' })
    expect((await h().request('GET', `/proxy/api/public/agency/${admin.agencyId}/logo`)).status).toBe(404)
    const asset = await upload(admin, await smallPng())
    const r = await admin.put('/proxy/api/agency/logo', { logoAssetId: asset.id })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ logoAssetId: asset.id, logoPath: `/proxy/api/public/agency/${admin.agencyId}/logo?v=${asset.id}` })
    // open: no login, whatever the upload's secure flag
    const img = await h().request('GET', r.body.logoPath)
    expect(img.status).toBe(200)
    expect(img.headers.get('content-type')).toBe('image/png')
    expect(img.headers.get('x-content-type-options')).toBe('nosniff')
    expect(img.text.slice(1, 4)).toBe('PNG')
    // the asset itself stays secure: the logo route serves only what the agency chose as its logo
    expect((await h().request('GET', `/proxy/api/asset/${asset.id}`)).status).toBe(404)
    // the public event page and the guest's dashboard entry carry it
    const pub = await h().request('GET', `/proxy/api/public/events/${e.id}`)
    expect(pub.body.agency).toEqual({ id: admin.agencyId, displayName: 'Stadtwerke Beispiel', logoPath: r.body.logoPath })
    const { guest } = await guestOf(e.id)
    const details = await guest.get(`/userDetails/guest?t=${Date.now()}`)
    expect(details.body.brand).toEqual({ id: admin.agencyId, displayName: 'Stadtwerke Beispiel', logoPath: r.body.logoPath })
    const events = await guest.get('/proxy/api/guest/events')
    expect(events.body.confirmedEvents[0].event.agency.logoPath).toBe(r.body.logoPath)
    // cleared: the name is the fallback
    expect((await admin.put('/proxy/api/agency/logo', { logoAssetId: null })).body).toEqual({ logoAssetId: null, logoPath: null })
    expect((await guest.get(`/userDetails/guest?t=${Date.now()}`)).body.brand).toEqual({ id: admin.agencyId, displayName: 'Stadtwerke Beispiel', logoPath: null })
    expect((await h().request('GET', `/proxy/api/public/agency/${admin.agencyId}/logo`)).status).toBe(404)
  })

  test('only an image the agency itself uploaded: not another agency\'s, not a file, not a guest\'s form upload; only administrators', async () => {
    const other = await h().admin()
    const foreign = await upload(other, await smallPng())
    const file = await upload(admin, new TextEncoder().encode('Kein Bild, nur Text.'), 'notiz.txt', 'DYNAMIC_FILE')
    for (const id of [foreign.id, file.id, 99999999]) {
      const r = await admin.put('/proxy/api/agency/logo', { logoAssetId: id })
      expect(r.status).toBe(400)
      expect(r.body.errorType).toBe('FIELD_ERROR')
    }
    // a guest's image from a public form, stored under the agency, is no logo
    const e = await createEvent(admin)
    await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'IMAGE', displayName: 'Foto' })
    const guestUpload = await anonymousUpload(h(), e.id, 'ident-brand-1')
    expect(guestUpload.status).toBe(201)
    expect((await admin.put('/proxy/api/agency/logo', { logoAssetId: guestUpload.body.id })).status).toBe(400)
    // an editor may not; a guest or nobody neither
    const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const ed = await loginAs(h(), editor, { accountId: editor.accounts[0]!.id })
    expect((await ed.put('/proxy/api/agency/logo', { logoAssetId: null })).status).toBe(403)
    expect((await h().request('PUT', '/proxy/api/agency/logo', { body: { logoAssetId: null } })).status).toBe(401)
    expect((await admin.get('/proxy/api/agency/logo')).body.logoAssetId).toBeNull()
  })

  test('the guest shell: the one agency of the guest\'s registrations; a guest of two agencies sees einlass\'s mark', async () => {
    const mine = await upload(admin, await smallPng())
    await admin.put('/proxy/api/agency/logo', { logoAssetId: mine.id })
    const e = await createEvent(admin)
    const { guest, userId } = await guestOf(e.id)
    expect((await guest.get(`/userDetails/guest?t=1`)).body.brand.id).toBe(admin.agencyId)
    const other = await h().admin({ agency: 'Andere Agentur' })
    const e2 = await createEvent(other)
    const user = await h().ctx.db.selectFrom('app_user').select('email').where('id', '=', userId).executeTakeFirstOrThrow()
    const again = await h().request('POST', `/proxy/api/public/events/${e2.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Lia', lastName: 'Logo', email: user.email } })
    expect(again.status).toBe(201)
    expect((await guest.get(`/userDetails/guest?t=2`)).body.brand).toBeNull()
  })

  test('tickets carry the agency logo when the document settings name none of their own', async () => {
    // its own agency: the logo tests above change the shared admin's
    const own = await h().admin()
    const e = await createEvent(own)
    const g = await guestWithToken(h(), own, e.id)
    const link = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens.downloadLinkTicket
    const ticket = async () => new Uint8Array(await (await h().app.handle(new Request(`http://localhost${link}`))).arrayBuffer())
    expect(await pdfImages(await ticket())).toEqual([])
    const logo = await upload(own, await new Bun.Image(await smallPng()).resize(64, 32).png().bytes())
    await own.put('/proxy/api/agency/logo', { logoAssetId: logo.id })
    expect(await pdfImages(await ticket())).toEqual([{ width: 64, height: 32 }])
  })
})
