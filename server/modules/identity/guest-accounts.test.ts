// Guest accounts (docs/identity.md, "Guest accounts"): made when a guest sets a password, and by later
// registrations of such a guest; each counts against the agency's licensed guestAccounts.
import { expect, test } from 'bun:test'
import { type Harness, TEST_PASSWORD, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from './access-tokens'

const LIMIT = 2

forEachDialect(
  'guest accounts',
  (h) => {
    const register = (x: Harness, eventId: number, email: string, firstName = 'Greta') =>
      x.request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName, lastName: 'Gast', email } })
    const userOf = async (email: string) => (await h().ctx.db.selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirstOrThrow())
    const guestAccounts = async (userId: number) =>
      (await h().ctx.db.selectFrom('account').select(['agency_id', 'user_role', 'first_name', 'last_name', 'status']).where('user_id', '=', userId).orderBy('agency_id').execute())
    /** the guest comes in with their mail's link and sets a password */
    const setPassword = async (email: string) => {
      const u = await userOf(email)
      const token = await issueAccessToken(h().ctx, h().ctx.db, u.id, GUEST_ACCESS)
      return h().request('PATCH', `/proxy/api/user/${u.id}`, { body: { password: TEST_PASSWORD, passwordRepeat: TEST_PASSWORD }, headers: { 'x-guest-token': token } })
    }
    const used = async (agent: Awaited<ReturnType<Harness['admin']>>) => (await agent.get('/proxy/api/app/init')).body.limits.usedGuestAccounts as number

    test('registering without a password makes no account; setting one makes a guest account in each agency of the guest\'s registrations', async () => {
      const a = await h().admin()
      const b = await h().admin()
      const ea = await createEvent(a)
      const eb = await createEvent(b)
      const email = uniqueEmail('greta')
      expect((await register(h(), ea.id, email)).status).toBe(201)
      expect((await register(h(), eb.id, email, 'Margarete')).status).toBe(201)
      const u = await userOf(email)
      expect(await guestAccounts(u.id)).toEqual([])
      expect([await used(a), await used(b)]).toEqual([0, 0])

      const r = await setPassword(email)
      expect(r.status === 200 ? 200 : r.text).toBe(200)
      expect(await guestAccounts(u.id)).toEqual([
        { agency_id: a.agencyId, user_role: 'CP_PERSOO_VISITOR_GUEST', first_name: 'Greta', last_name: 'Gast', status: 'OK' },
        { agency_id: b.agencyId, user_role: 'CP_PERSOO_VISITOR_GUEST', first_name: 'Margarete', last_name: 'Gast', status: 'OK' },
      ])
      expect([await used(a), await used(b)]).toEqual([1, 1])

      // the login offers the two guest accounts to choose from; /proxy/account/guest shows each
      const g = h().agent()
      const login = await g.post('/auth/login', { email, password: TEST_PASSWORD })
      expect(login.status).toBe(200)
      expect(login.body.requireAccountSelection).toBe(true)
      expect(login.body.accounts.map((x: any) => [x.agencyId ?? x.agency?.id, x.userRole])).toEqual([
        [a.agencyId, 'CP_PERSOO_VISITOR_GUEST'],
        [b.agencyId, 'CP_PERSOO_VISITOR_GUEST'],
      ])
      const mine = await g.get(`/proxy/account/guest?agency=${b.agencyId}`)
      expect(mine.status).toBe(200)
      expect(mine.body).toMatchObject({ firstName: 'Margarete', userRole: 'CP_PERSOO_VISITOR_GUEST' })

      // a later registration for a third agency adds that agency's guest account
      const c = await h().admin()
      const ec = await createEvent(c)
      expect((await register(h(), ec.id, email, 'Greta')).status).toBe(201)
      expect((await guestAccounts(u.id)).map((x) => x.agency_id)).toEqual([a.agencyId, b.agencyId, c.agencyId])
      expect(await used(c)).toBe(1)
      // and another one for an agency that has the account already adds nothing
      expect((await register(h(), (await createEvent(a)).id, email)).status).toBe(201)
      expect(await used(a)).toBe(1)
    })

    test('an agency at its limit: setting the password is refused whole (no password, no account anywhere); a registration still succeeds without one', async () => {
      const full = await h().admin()
      const other = await h().admin()
      const ef = await createEvent(full)
      const eo = await createEvent(other)
      // two guests use up the full agency's guest accounts
      for (let i = 0; i < LIMIT; i++) {
        const e = uniqueEmail('filler')
        await register(h(), ef.id, e)
        expect((await setPassword(e)).status).toBe(200)
      }
      expect(await used(full)).toBe(LIMIT)
      const email = uniqueEmail('late')
      await register(h(), eo.id, email)
      await register(h(), ef.id, email)
      const refused = await setPassword(email)
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ errorType: 'LIMIT_GUEST_ACCOUNTS_EXCEEDED', errorMessage: 'Die Anzahl der Gastkonten Ihrer Lizenz ist erreicht.' })
      const u = await userOf(email)
      expect(u.password_hash).toBeNull()
      expect(await guestAccounts(u.id)).toEqual([])
      expect(await used(other)).toBe(0)
      expect((await h().agent().post('/auth/login', { email, password: TEST_PASSWORD })).status).toBe(401)

      // a guest with a password registering for the full agency: registered, but no account there
      const known = uniqueEmail('known')
      await register(h(), eo.id, known)
      expect((await setPassword(known)).status).toBe(200)
      const r = await register(h(), ef.id, known)
      expect(r.status).toBe(201)
      expect((await guestAccounts((await userOf(known)).id)).map((x) => x.agency_id)).toEqual([other.agencyId])
      expect(await used(full)).toBe(LIMIT)
    })

    test('guests setting passwords at the same time never pass the limit', async () => {
      const agency = await h().admin()
      const e = await createEvent(agency)
      const emails = Array.from({ length: 5 }, () => uniqueEmail('rush'))
      for (const m of emails) await register(h(), e.id, m)
      const results = await Promise.all(emails.map(setPassword))
      expect(results.filter((r) => r.status === 200).length).toBe(LIMIT)
      expect(results.filter((r) => r.status === 403).every((r) => r.body.errorType === 'LIMIT_GUEST_ACCOUNTS_EXCEEDED')).toBe(true)
      expect(await used(agency)).toBe(LIMIT)
    })

    test('users with an organiser account get no guest accounts', async () => {
      const a = await h().admin()
      const b = await h().admin()
      const eb = await createEvent(b)
      // the organiser of agency a registers as a guest at agency b
      expect((await register(h(), eb.id, a.email)).status).toBe(201)
      expect((await guestAccounts((await userOf(a.email.toLowerCase())).id)).map((x) => x.user_role)).toEqual(['AGENCY_ADMIN'])
      expect(await used(b)).toBe(0)
    })
  },
  { license: licenseWith([], { guestAccounts: LIMIT }) },
)
