import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { GUEST_ACCESS, issueAccessToken } from './access-tokens'
import { PASSWORD_PATTERN } from './model'
import { createAgency, createUser, loginAs } from './test-helpers'

const NEW = 'Neu-Passwort1!'

forEachDialect('account area: user, password, profile, introduction', (h) => {
  async function organiser(role: 'AGENCY_ADMIN' | 'AGENCY_EDITOR' = 'AGENCY_EDITOR') {
    const agency = await createAgency(h(), 'Agentur Profil')
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role }] })
    return { u, agency, agent: await loginAs(h(), u, { accountId: u.accounts[0].id }) }
  }

  test('current user and accounts carry the spec fields', async () => {
    const { u, agent, agency } = await organiser()
    await h().ctx.db.updateTable('agency').set({ contact_guest: 'Frau Kontakt', contact_guest_phone: '+49 30 1234', contact_guest_mail: 'kontakt@agentur.example' }).where('id', '=', agency.id).execute()
    const me = await agent.get('/proxy/api/user/current')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: u.userId, email: u.email, userStatus: 'OK', isAccount: true, deletionInProgress: false, language: { code: 'de' }, design: null, tfaEnabled: false, $isDummyMail: false })
    expect(me.body.currentAccount).toMatchObject({ id: u.accounts[0].id, userRole: 'AGENCY_EDITOR', calucatedLanguage: { code: 'de' } })
    const accounts = await agent.get('/proxy/api/user/accounts')
    expect(accounts.body).toHaveLength(1)
    expect(accounts.body[0]).toMatchObject({
      id: u.accounts[0].id,
      agency: { id: agency.id, displayName: 'Agentur Profil', contactGuest: 'Frau Kontakt', contactGuestPhone: '+49 30 1234', contactGuestMail: 'kontakt@agentur.example' },
      userRole: 'AGENCY_EDITOR',
      status: 'OK',
      accountStatus: 'OK',
      canEditAccount: true,
      requireDeletion: false,
      deletionInProgress: false,
      finalDeletionDate: null,
      address: { street: null, streetNumber: null, postCode: null, city: null, country: null },
    })
    expect((await h().request('GET', '/proxy/api/user/current')).status).toBe(401)
  })

  test('settings: language and design are saved; unknown values refused', async () => {
    const { u, agent } = await organiser()
    const ok = await agent.patch(`/proxy/api/user/${u.userId}`, { language: 'en', design: 'design_202401' })
    expect(ok.status).toBe(200)
    expect(ok.body.user).toMatchObject({ language: { code: 'en' }, design: 'design_202401' })
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { design: null })).body.user.design).toBeNull()
    // MULTI_LANGUAGE languages need the feature
    const fr = await agent.patch(`/proxy/api/user/${u.userId}`, { language: 'fr' })
    expect(fr.status).toBe(400)
    expect(fr.body.errorFields).toEqual([{ field: 'language', errorType: 'INVALID' }])
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { design: 'pink' })).body.errorFields).toEqual([{ field: 'design', errorType: 'INVALID' }])
    const other = await createUser(h())
    expect((await agent.patch(`/proxy/api/user/${other.userId}`, { language: 'en' })).status).toBe(404)
  })

  test('password rules: each message of the spec', async () => {
    const { u, agent } = await organiser()
    const cases: Array<[Record<string, unknown>, Array<{ field: string; errorType: string }>]> = [
      [{ password: '', passwordRepeat: '' }, [{ field: 'password', errorType: 'PASSWORD_MISSING' }, { field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISSING' }]],
      [{ password: 'kurz1!A', passwordRepeat: 'kurz1!A' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'nurkleinbuchstaben1!', passwordRepeat: 'nurkleinbuchstaben1!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'NURGROSS1!', passwordRepeat: 'NURGROSS1!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'OhneZiffer!', passwordRepeat: 'OhneZiffer!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'OhneSonder1', passwordRepeat: 'OhneSonder1' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'Mit Leer1!', passwordRepeat: 'Mit Leer1!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      // * is allowed but is not one of the spec's specials: the message says so (issue 10)
      [{ password: 'Sonder*1Aa', passwordRepeat: 'Sonder*1Aa' }, [{ field: 'password', errorType: 'PASSWORD_SPECIAL_NOT_COUNTED' }]],
      [{ password: 'Euro€;1Aa', passwordRepeat: 'Euro€;1Aa' }, [{ field: 'password', errorType: 'PASSWORD_SPECIAL_NOT_COUNTED' }]],
      // something else missing too: the general message
      [{ password: 'sonder*1a', passwordRepeat: 'sonder*1a' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: NEW, passwordRepeat: 'Anders1!xx' }, [{ field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISMATCH' }]],
    ]
    for (const [body, fields] of cases) {
      const r = await agent.patch(`/proxy/api/user/${u.userId}`, { ...body, currentPassword: u.password })
      expect(r.status).toBe(400)
      expect(r.body.errorType).toBe('FIELD_ERROR')
      expect(r.body.errorFields).toEqual(fields)
    }
    // every special character of the spec is accepted (the pattern the server validates with)
    for (const special of ',.-_!@#$%^&+=§/(){}[]?"´`') expect(PASSWORD_PATTERN.test(`Passwort1${special}`)).toBe(true)
    const pw = 'Passwort1§'
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { password: pw, passwordRepeat: pw, currentPassword: u.password })).status).toBe(200)
  })

  test('changing the password ends the other sessions; removeTokens logs out every device', async () => {
    const { u, agent } = await organiser()
    const phone = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const r = await agent.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: u.password })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ passwordChanged: true, loggedOut: false })
    expect((await agent.get('/proxy/api/user/current')).status).toBe(200)
    expect((await phone.get('/proxy/api/user/current')).status).toBe(401)
    expect((await h().agent().post('/auth/login', { email: u.email, password: u.password })).status).toBe(401)
    const again = await loginAs(h(), { email: u.email, password: NEW })
    const token = await issueAccessToken(h().ctx, h().ctx.db, u.userId, GUEST_ACCESS)
    const all = await agent.patch(`/proxy/api/user/${u.userId}`, { password: 'Nochmal1!x', passwordRepeat: 'Nochmal1!x', currentPassword: NEW, removeTokens: true })
    expect(all.body.loggedOut).toBe(true)
    expect((await agent.get('/proxy/api/user/current')).status).toBe(401)
    expect((await again.get('/proxy/api/user/current')).status).toBe(401)
    expect((await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })).status).toBe(401)
  })

  test('current password: required and checked for everyone who has one (organisers too: a stolen session cannot change it)', async () => {
    const { u, agent } = await organiser()
    const orgMissing = await agent.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW })
    expect(orgMissing.body.errorFields).toEqual([{ field: 'currentPassword', errorType: 'CURRENT_PASSWORD_MISSING' }])
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: 'Falsch123!' })).body.errorType).toBe('CURRENT_PASSWORD_WRONG')
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: u.password })).status).toBe(200)

    const guest = await createUser(h())
    const g = await loginAs(h(), guest)
    const missing = await g.patch(`/proxy/api/user/${guest.userId}`, { password: NEW, passwordRepeat: NEW })
    expect(missing.status).toBe(400)
    expect(missing.body.errorFields).toEqual([{ field: 'currentPassword', errorType: 'CURRENT_PASSWORD_MISSING' }])
    const wrong = await g.patch(`/proxy/api/user/${guest.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: 'Falsch123!' })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ errorType: 'CURRENT_PASSWORD_WRONG', errorMessage: 'Das angegebene aktuelle Passwort ist nicht korrekt.' })
    expect(wrong.body.errorFields).toEqual([{ field: 'currentPassword', errorType: 'CURRENT_PASSWORD_WRONG' }])
    expect((await g.patch(`/proxy/api/user/${guest.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: guest.password })).status).toBe(200)

    // a guest without a password sets one through the guest link, without a current password
    const linkGuest = await createUser(h(), { password: null })
    const token = await issueAccessToken(h().ctx, h().ctx.db, linkGuest.userId, GUEST_ACCESS)
    const set = await h().request('PATCH', `/proxy/api/user/${linkGuest.userId}`, { body: { password: NEW, passwordRepeat: NEW }, headers: { 'x-guest-token': token } })
    expect(set.status).toBe(200)
    expect(set.body.user.hasPassword).toBe(true)
    // once it has one, the link alone cannot change it
    const viaLink = await h().request('PATCH', `/proxy/api/user/${linkGuest.userId}`, { body: { password: 'Anders1!xx', passwordRepeat: 'Anders1!xx' }, headers: { 'x-guest-token': token } })
    expect(viaLink.body.errorFields).toEqual([{ field: 'currentPassword', errorType: 'CURRENT_PASSWORD_MISSING' }])
    // an organiser's guest link does not reach the account area at all (guest things only)
    const orgToken = await issueAccessToken(h().ctx, h().ctx.db, u.userId, GUEST_ACCESS)
    const orgViaLink = await h().request('PATCH', `/proxy/api/user/${u.userId}`, { body: { password: 'Anders1!xx', passwordRepeat: 'Anders1!xx' }, headers: { 'x-guest-token': orgToken } })
    expect(orgViaLink.status).toBe(401)
    expect(orgViaLink.body.errorType).toBe('NOT_AUTHENTICATED')
  })

  test('profile: saved with E.164 phones and ISO birthday; bad phone, date and others refused', async () => {
    const { u, agent } = await organiser()
    const id = u.accounts[0].id
    const ok = await agent.patch(`/proxy/api/user/accounts/${id}`, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Agentur',
      position: 'Leitung',
      address: { street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' },
      birthday: '10.12.1985',
      gender: 'FEMALE',
      phoneNumber: '030 1234567',
      mobilePhoneNumber: '+49 151 23456789',
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', birthday: '1985-12-10', gender: 'FEMALE', phoneNumber: '+49301234567', mobilePhoneNumber: '+4915123456789', address: { city: 'Berlin', country: 'DEU' } })
    const bad = await agent.patch(`/proxy/api/user/accounts/${id}`, { phoneNumber: '12', birthday: '31.02.2000', gender: 'X' })
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual(
      expect.arrayContaining([
        { field: 'phoneNumber', errorType: 'INVALID_PHONE' },
        { field: 'birthday', errorType: 'INVALID_DATE' },
        { field: 'gender', errorType: 'INVALID' },
      ]),
    )
    const country = await agent.patch(`/proxy/api/user/accounts/${id}`, { address: { country: 'XYZ' } })
    expect(country.body.errorFields).toEqual([{ field: 'address.country', errorType: 'INVALID' }])
    const future = await agent.patch(`/proxy/api/user/accounts/${id}`, { birthday: '01.01.2999' })
    expect(future.body.errorFields).toEqual([{ field: 'birthday', errorType: 'INVALID_DATE' }])
    const old = await agent.patch(`/proxy/api/user/accounts/${id}`, { birthday: '31.12.1898' })
    expect(old.body.errorFields).toEqual([{ field: 'birthday', errorType: 'INVALID_DATE' }])
    const other = await createUser(h(), { accounts: [{ agencyId: u.accounts[0].agencyId, role: 'AGENCY_EDITOR' }] })
    expect((await agent.patch(`/proxy/api/user/accounts/${other.accounts[0].id}`, { firstName: 'X' })).status).toBe(404)
  })

  test('guest-role accounts edit only with canEditAccount; the entry-pass variant edits nothing', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const g = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'CP_PERSOO_VISITOR_GUEST', canEditAccount: false }, { agencyId: b.id, role: 'CP_PERSOO_VISITOR_GUEST', canEditAccount: true }] })
    const agent = await loginAs(h(), g)
    const accounts = (await agent.get('/proxy/api/user/accounts')).body
    expect(accounts.map((x: any) => x.canEditAccount)).toEqual([false, true])
    const no = await agent.patch(`/proxy/api/user/accounts/${g.accounts[0].id}`, { firstName: 'Grete' })
    expect(no.status).toBe(403)
    expect(no.body.errorType).toBe('NO_PERMISSION')
    expect((await agent.patch(`/proxy/api/user/accounts/${g.accounts[1].id}`, { firstName: 'Grete' })).status).toBe(200)
    const features = h().ctx.license.features
    ;(h().ctx.license as any).features = [...features, 'SYSTEM_COVIDOO']
    try {
      const entryPass = await agent.patch(`/proxy/api/user/accounts/${g.accounts[1].id}`, { firstName: 'Grete' })
      expect(entryPass.status).toBe(403)
      expect((await agent.get('/proxy/api/user/accounts')).body.every((x: any) => x.canEditAccount === false)).toBe(true)
    } finally {
      ;(h().ctx.license as any).features = features
    }
  })

  test('a pending account cannot be edited', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }, { agencyId: b.id, role: 'AGENCY_EDITOR', status: 'PENDING_ACTIVATION' }] })
    const agent = await loginAs(h(), u)
    const r = await agent.patch(`/proxy/api/user/accounts/${u.accounts[1].id}`, { firstName: 'X' })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('ACCOUNT_NOT_ACTIVATED')
  })

  test('introduction keys: list, hide, show again', async () => {
    const { agent } = await organiser()
    expect((await agent.get('/proxy/api/introduction')).body).toEqual([])
    expect((await agent.post('/proxy/api/introduction', ['events.list', 'agency.data', 'events.list'])).body).toEqual(['agency.data', 'events.list'])
    expect((await agent.get('/api/introduction')).body).toEqual(['agency.data', 'events.list'])
    expect((await agent.delete('/proxy/api/introduction', ['agency.data'])).body).toEqual(['events.list'])
    expect((await agent.delete('/proxy/api/introduction')).body).toEqual([])
    expect((await h().request('GET', '/proxy/api/introduction')).status).toBe(401)
  })
})

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const picture = async () => {
  const f = new FormData()
  f.append('file', new File([(await new Bun.Image(PIXEL).resize(600, 600).jpeg({ quality: 85 }).bytes()) as Uint8Array<ArrayBuffer>], 'ich.jpg'))
  return f
}

forEachDialect('account area: profile picture', (h) => {
  test('an own account gets a picture (type USER, images only); others and read-only accounts do not', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_CHECKIN' }, { agencyId: b.id, role: 'CP_PERSOO_VISITOR_GUEST', canEditAccount: false }] })
    const agent = await loginAs(h(), u)
    const r = await agent.request('POST', `/proxy/api/user/accounts/${u.accounts[0].id}/image`, { form: await picture() })
    expect(r.status).toBe(200)
    expect(r.body.image).toMatchObject({ originalFileName: 'ich.jpg' })
    const img = await h().request('GET', r.body.image.defaultImagePath)
    expect(img.status).toBe(200)
    expect(img.headers.get('content-type')).toBe('image/jpeg')
    expect((await agent.get('/proxy/api/user/accounts')).body.find((x: any) => x.id === u.accounts[0].id).image.id).toBe(r.body.image.id)
    const text = new FormData()
    text.append('file', new File(['kein Bild, nur Text'], 'notiz.txt'))
    const wrong = await agent.request('POST', `/proxy/api/user/accounts/${u.accounts[0].id}/image`, { form: text })
    expect(wrong.status).toBe(400)
    expect(wrong.body.errorType).toBe('UPLOAD_WRONG_EXTENSION')
    expect((await agent.request('POST', `/proxy/api/user/accounts/${u.accounts[1].id}/image`, { form: await picture() })).status).toBe(403)
    const other = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    expect((await agent.request('POST', `/proxy/api/user/accounts/${other.accounts[0].id}/image`, { form: await picture() })).status).toBe(404)
    // removing the picture
    expect((await agent.patch(`/proxy/api/user/accounts/${u.accounts[0].id}`, { imageId: null })).body.image).toBeNull()
    // another user's asset cannot be linked
    const theirs = await loginAs(h(), other)
    const their = await theirs.request('POST', `/proxy/api/user/accounts/${other.accounts[0].id}/image`, { form: await picture() })
    const b2 = await createAgency(h())
    const stranger = await createUser(h(), { accounts: [{ agencyId: b2.id, role: 'AGENCY_EDITOR' }] })
    const s = await loginAs(h(), stranger)
    expect((await s.patch(`/proxy/api/user/accounts/${stranger.accounts[0].id}`, { imageId: their.body.image.id })).body.errorFields).toEqual([{ field: 'imageId', errorType: 'INVALID' }])
  })
})
