// Hostile: one agency's ids in the hands of another. Every route with an id in its path — read from
// the app's own OpenAPI document, so a new route family is attacked the day it is added — is called
// by agency B's administrator (all permissions) with agency A's ids: never a 2xx, never A's data in
// the answer, reads answer 404 like an unknown id, and A's objects are unchanged afterwards.
import { expect, test } from 'bun:test'
import { issueInvoice } from '../modules/invoices/service'
import { BUYER, draft as invoiceDraft } from '../modules/invoices/testing'
import { type Agent, forEachDialect, uniqueEmail } from '../testing/harness'
import { addGuest, createEvent, licenseWith } from '../testing/organiser'
import { smallPng, uploadForm } from './fixtures'
import { buy, buyer, paidEvent } from '../modules/ticketing/testing'

const MARK = 'Geheimsache'

/** Routes whose answer for another agency's id is public by design (with the reason). */
const PUBLIC_BY_DESIGN: Record<string, string> = {
  'GET /proxy/api/public/events/{id}': 'the public event page (online events are public)',
  'GET /proxy/api/public/events/{id}/form': 'the public registration form',
  'GET /proxy/api/public/events/{id}/prefill': 'the public form prefill (empty without a guest link)',
  'POST /proxy/api/public/events/{id}/registrations': 'anyone may register (tested in takeover/uploads suites)',
  'GET /s/{code}': 'short links are public redirects',
  'GET /proxy/api/download/{token}': 'a bearer link from the guest\'s mail: whoever holds it gets the document (tested in the documents suite)',
  'GET /proxy/api/download/{token}/{document}': 'as above, one document of the link',
  'GET /proxy/api/public/agency/{id}/imprint': 'an agency\'s imprint and privacy notice are public',
  'GET /proxy/api/public/agency/{id}/logo': 'an agency\'s logo is shown on its public pages',
  'GET /proxy/api/public/events/{id}/seatingplan': 'the public plan of a public event',
  'POST /proxy/api/public/events/{id}/seatingplanArea': 'the public chairs of a public event',
  'GET /proxy/api/public/events/{id}/ticketCategories': 'the ticket categories a public paid event sells',
  'POST /proxy/api/public/events/{id}/ticketPrice': 'the price of a ticket choice on a public paid event (the public page shows it)',
}

/** Path parameters that name no row of another agency: the route acts on the caller's own agency
 * (the agency's mail text of a kind and language; ownership tested in mail/texts.test.ts). */
const NOT_AN_ID = new Set(['kind', 'language'])

forEachDialect(
  'security: IDOR across agencies',
  (h) => {
    async function agencyA() {
      const a = await h().admin({ agency: `${MARK} A` })
      const event = await createEvent(a, { displayName: `${MARK} Gala` })
      const guest = await addGuest(a, event.id, { firstName: MARK, lastName: 'Gast', email: uniqueEmail('geheim') })
      // a paid event with an order, before the agency's GLOBAL agreement would ask the buyer to sign
      const paid = await paidEvent(a, { event: { displayName: `${MARK} Konzert` } })
      const coupon = (await a.post(`/proxy/api/events/${paid.event.id}/coupons`, { code: 'GEHEIM10', valueType: 'PERCENT', reduction: 10 })).body as { id: number }
      const bought = await buy(h(), paid.event.id, buyer([{ categoryId: paid.categories[0]!.id, amount: 1 }], { firstName: MARK }))
      if (bought.status !== 201) throw new Error(`buy: ${bought.status} ${bought.text}`)
      const order = await h().ctx.db.selectFrom('ticket_order').select('id').where('public_id', '=', bought.body.ticketOrderId).executeTakeFirstOrThrow()
      const paymentMethod = (await a.get('/proxy/api/agency/paymentMethods')).body[0] as { id: number }
      const field = (await a.post(`/proxy/api/events/${event.id}/fields`, { type: 'TEXT', displayName: `${MARK} Frage` })).body
      const tag = (await a.post('/proxy/api/tags', { displayName: `${MARK} Tag` })).body
      const campaign = (await a.post('/proxy/api/campaigns', { displayName: `${MARK} Kampagne` })).body
      const agreement = (await a.post('/proxy/api/agreements', { displayName: `${MARK} Vereinbarung`, validity: 'GLOBAL' })).body
      const asset = (await a.request('POST', '/api/asset', { form: uploadForm(await smallPng(), 'geheim.png', { type: 'EVENT', secure: 'true' }) })).body
      const shortLink = (await a.post('/proxy/api/shortLinks', { eventId: event.id })).body
      await a.post(`/proxy/api/events/${event.id}/invitations`, {})
      const task = await h().ctx.db.selectFrom('task').select('id').where('agency_id', '=', a.agencyId).executeTakeFirstOrThrow()
      const colleague = (await a.post('/proxy/api/agency/users', { email: uniqueEmail('kollege'), userRole: 'AGENCY_EDITOR', firstName: MARK })).body
      const colleagueAccount = await h().ctx.db.selectFrom('account').select('id').where('agency_id', '=', a.agencyId).where('id', '!=', a.accountId).executeTakeFirstOrThrow()
      const user = await h().ctx.db.selectFrom('account').select('user_id').where('id', '=', a.accountId).executeTakeFirstOrThrow()
      const tfa = await h().ctx.db
        .insertInto('user_tfa')
        .values({ user_id: user.user_id, display_name: MARK, tfa_type: 'OTP', secret: 'x', enabled: false, linked: false } as never)
        .returning('id')
        .executeTakeFirst()
        .catch(() => undefined)
      const invoice = await h().ctx.db.transaction().execute((trx) =>
        issueInvoice(h().ctx, trx, { agencyId: a.agencyId, eventId: event.id, orderRef: `${MARK}-order`, prefix: 'RE-', draft: invoiceDraft({ buyer: { ...BUYER, name: `${MARK} Käufer` } }) }),
      )
      const seating = await a.put(`/proxy/api/events/${event.id}/seatingplan`, {
        priceCategories: [{ key: 'p', displayName: `${MARK} Parkett`, color: '#112233' }],
        areas: [{ displayName: `${MARK} Saal`, chairs: [{ label: 'A 1', priceCategory: 'p', percentX: 1, percentY: 1, percentWidth: 1, percentHeight: 1 }] }],
      })
      const chair = seating.body.areas[0].chairs[0] as { id: number }
      const signature = await h().ctx.db
        .insertInto('agreement_signature')
        .values({ visitor_id: guest.id, agreement_id: agreement.id, event_id: event.id, status: 'CONFIRMED', signature: `${MARK}-signatur`, agreement_version: 1, agreement_name: MARK, agreement_text: MARK, appearance: 'CHECKBOX', origin: 'DESK', account_id: null, decided_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
      expect([field.id, tag.id, campaign.id, agreement.id, asset.id, shortLink.id, colleague ? 1 : 0, chair?.id].every(Boolean)).toBe(true)
      // a credit of a bank statement still to be decided (the bank statement import, issue 21)
      const bankEntry = await h().ctx.db
        .insertInto('bank_entry')
        .values({ agency_id: a.agencyId, entry_ref: `${MARK}-ref`, statement_id: null, account_iban: null, booking_date: '2026-11-20', amount_cents: 2500, currency: 'EUR', debtor_name: `${MARK} Zahler`, debtor_iban: null, remittance: `${MARK} Verwendungszweck`, status: 'UNKNOWN', order_id: null, candidates: '[]', imported_at: new Date().toISOString(), imported_by: null } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      // mail settings of the agency (issue 23): written directly, the licence here has no MAIL_CUSTOM
      const mailSettings = await h().ctx.db
        .insertInto('mail_settings')
        .values({ agency_id: a.agencyId, type: 'SMTP', display_name: `${MARK} SMTP`, smtp_host: '127.0.0.1', smtp_port: 25, smtp_tls: 'NONE', smtp_user: MARK, smtp_password: null, smtp_domains: '[]', status: 'INVALID' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      // a check-in list of the event (issue 21)
      const checkinList = await a.post(`/proxy/api/events/${event.id}/checkin/lists`, { name: `${MARK} Haupteingang`, categoryIds: [] })
      expect(checkinList.status).toBe(201)
      const mediaCategory = (await a.post('/proxy/api/mediaGallery/categories', { displayName: `${MARK} Galerie` })).body as { id: number }
      const mediaEntry = await a.post('/proxy/api/mediaGallery/entries', { categoryId: mediaCategory.id, assetId: asset.id, displayName: `${MARK} Bild` })
      expect(mediaEntry.status).toBe(201)
      // an offline desk of the event and a conflict of two desks (issue 26)
      const desk = await a.post(`/proxy/api/events/${event.id}/checkin/desks`, { name: `${MARK} Tablet` })
      expect(desk.status).toBe(201)
      const conflict = await h().ctx.db
        .insertInto('checkin_conflict')
        .values({ event_id: event.id, visitor_id: guest.id, person: 0, list_id: null, first_desk_id: desk.body.deskId, first_at: new Date().toISOString(), second_desk_id: null, second_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { a, event, guest, field, tag, campaign, agreement, asset, shortLink, task, colleagueAccount, userId: user.user_id, tfaId: tfa?.id ?? 1, invoice, chair, signature, paid, coupon, order, paymentMethod, bankEntry, mailSettings, checkinList: checkinList.body as { id: number }, mediaCategory, mediaEntry: mediaEntry.body as { id: number }, deskId: desk.body.deskId as number, conflictId: conflict.id }
    }
    type A = Awaited<ReturnType<typeof agencyA>>

    /** A's id for a path parameter: by its name and the path segment before it. */
    function idFor(a: A, path: string, param: string): string {
      if (param === 'vid') return String(a.guest.id)
      if (param === 'fieldId') return String(a.field.id)
      if (param === 'action') return 'approve'
      if (param === 'importId') return '1'
      if (param === 'code') return a.shortLink.code ?? 'x'
      if (param === 'token' || param === 'document') return 'x'
      if (param === 'chairId') return String(a.chair.id)
      // a translation's language (names no row of its own; the event before it does)
      if (param === 'language') return 'en'
      const before = path.split('/{' + param + '}')[0].split('/').pop()
      // the media gallery's entries and categories (its "entries" are not the bank's)
      if (path.startsWith('/proxy/api/mediaGallery/')) return String(before === 'categories' ? a.mediaCategory.id : a.mediaEntry.id)
      const byCollection: Record<string, number> = {
        events: a.event.id,
        event: a.event.id,
        tags: a.tag.id,
        campaigns: a.campaign.id,
        agreements: a.agreement.id,
        signatures: a.agreement.id,
        asset: a.asset.id,
        tasks: a.task.id,
        users: a.colleagueAccount.id,
        'user-tfa': a.tfaId,
        user: a.userId,
        accounts: a.a.accountId,
        account: a.a.accountId,
        select: a.a.accountId,
        shortLinks: a.shortLink.id,
        guest: a.guest.id,
        ticketOrder: a.guest.id,
        invoices: a.invoice.id,
        log: a.signature.id,
        ticketCategories: a.paid.categories[0]!.id,
        coupons: a.coupon.id,
        orders: a.order.id,
        paymentMethods: a.paymentMethod.id,
        // a provider's webhook names the payment method whose signing secret checks it
        webhook: a.paymentMethod.id,
        agency: a.a.agencyId,
        entries: a.bankEntry.id,
        lists: a.checkinList.id,
        desks: a.deskId,
        conflicts: a.conflictId,
        mailSettings: a.mailSettings.id,
      }
      if (before && byCollection[before] !== undefined) return String(byCollection[before])
      throw new Error(`idor.test.ts: no id of agency A for {${param}} in ${path}: add it to idFor (a new route family)`)
    }

    /** Bodies that a write would accept for its own agency, so a 400 cannot hide a missing ownership check. */
    function bodyFor(a: A, key: string): unknown {
      const bodies: Record<string, unknown> = {
        'PUT /proxy/api/events/{id}': { ...a.event, displayName: 'Übernommen' },
        'PATCH /proxy/api/events/{id}/visitors/{vid}': { vip: true, note: 'übernommen' },
        'PUT /proxy/api/events/{id}/visitors/{vid}': { salutation: 'Herr', firstName: 'Über', lastName: 'Nommen', email: uniqueEmail('x') },
        'PUT /proxy/api/events/{id}/fields/{fieldId}': { ...a.field, displayName: 'Übernommen' },
        'PATCH /proxy/api/tags/{id}': { displayName: 'Übernommen' },
        'PATCH /proxy/api/campaigns/{id}': { displayName: 'Übernommen' },
        'DELETE /proxy/api/shortLinks/{id}': { code: a.shortLink.code },
        'PATCH /proxy/api/agency/users/{id}': { userRole: 'AGENCY_ADMIN' },
        'PUT /proxy/api/agreements/{id}': { displayName: 'Übernommen', validity: 'GLOBAL' },
        'POST /proxy/api/events/{id}/visitors': { salutation: 'Herr', firstName: 'Unter', lastName: 'Geschoben', email: uniqueEmail('x') },
        'POST /proxy/api/events/{id}/fields': { type: 'TEXT', displayName: 'Untergeschoben' },
        'POST /proxy/api/events/{id}/copy': { displayName: 'Kopie' },
        'POST /proxy/api/events/{id}/invitations': {},
        'POST /proxy/api/events/{id}/visitors/search': {},
        'PUT /proxy/api/events/{id}/form-settings': { waitingList: true },
        'PUT /proxy/api/events/{id}/seatingplan': { priceCategories: [], areas: [] },
        'PATCH /proxy/api/events/{id}/seatingplan/chairs/{chairId}': { blocked: true },
        'POST /proxy/api/events/{id}/seatingplan/copy': { fromEventId: a.event.id },
        'PUT /proxy/api/events/{id}/visitors/{vid}/chair': { chairId: a.chair.id },
        'POST /proxy/api/bank/entries/{id}/assign': { orderNumber: 'N0000001' },
        'PUT /proxy/api/mediaGallery/categories/{id}': { displayName: 'Übernommen' },
        'PUT /proxy/api/mediaGallery/entries/{id}': { displayName: 'Übernommen' },
        'PUT /proxy/api/events/{id}/translations/{language}': { displayName: 'Übernommen' },
        'PUT /proxy/api/agreements/{id}/translations/{language}': { displayName: 'Übernommen' },
      }
      return bodies[key] ?? {}
    }

    async function walk(b: Agent, a: A) {
      const doc = (await b.get('/proxy/api/openapi.json')).body
      const wrong: string[] = []
      let walked = 0
      for (const [path, ops] of Object.entries<any>(doc.paths)) {
        const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
        if (!params.length || params.every((p) => NOT_AN_ID.has(p))) continue
        let concrete = path
        for (const p of params) concrete = concrete.replace(`{${p}}`, idFor(a, path, p))
        for (const method of Object.keys(ops)) {
          const key = `${method.toUpperCase()} ${path}`
          if (PUBLIC_BY_DESIGN[key]) continue
          const r = await b.request(method.toUpperCase(), concrete, method === 'get' || method === 'head' ? {} : { body: bodyFor(a, key) })
          walked++
          if (r.status < 400) wrong.push(`${key}: ${r.status}`)
          else if (method === 'get' && r.status !== 404) wrong.push(`${key}: ${r.status} ${r.body?.errorType ?? ''} (a read of another agency's id answers 404)`)
          if (r.text.includes(MARK) || r.text.includes(a.guest.email)) wrong.push(`${key}: answer shows agency A's data`)
        }
      }
      return { wrong, walked }
    }

    test('agency B\'s administrator on every id route with agency A\'s ids: 404 for reads, no 2xx, no data, nothing changed', async () => {
      const a = await agencyA()
      const b = await h().admin({ agency: 'Agentur B' })
      const before = await snapshot(a)
      const { wrong, walked } = await walk(b, a)
      expect(walked).toBeGreaterThan(50)
      expect(wrong).toEqual([])
      expect(await snapshot(a)).toEqual(before)
    })

    test('a guest of agency B (guest token) on agency A\'s guest routes: nothing', async () => {
      const a = await agencyA()
      const b = await h().admin({ agency: 'Agentur B2' })
      const eb = await createEvent(b)
      const gb = await addGuest(b, eb.id)
      const r = await h().request('POST', `/proxy/api/public/events/${eb.id}/registrations`, { body: { salutation: 'Frau', firstName: 'G', lastName: 'B', email: uniqueEmail('gb') } })
      expect(r.status).toBe(201)
      const { issueAccessToken, GUEST_ACCESS } = await import('../modules/identity/access-tokens')
      const v = await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
      const token = await issueAccessToken(h().ctx, h().ctx.db, v.user_id!, GUEST_ACCESS)
      const headers = { 'x-guest-token': token }
      for (const [method, path, body] of [
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/details`],
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/ticket`],
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/agreements`],
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/agreements/log`],
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/agreements/log/${a.signature.id}/signature`],
        ['GET', `/proxy/api/guest/events/visitors/${a.guest.id}/data`],
        ['PUT', `/proxy/api/guest/events/visitors/${a.guest.id}/data`, { fields: {} }],
        ['POST', `/proxy/api/guest/events/visitors/${a.guest.id}/transfer`, { email: uniqueEmail('dieb') }],
        ['PATCH', `/proxy/api/guest/events/visitors/${a.guest.id}`, { escortPersons: [] }],
        ['POST', `/proxy/api/guest/events/${a.event.id}/reject`, { visitor: a.guest.id, reason: 'x' }],
        ['POST', `/proxy/api/guest/events/${a.event.id}/activate`, { visitor: a.guest.id }],
        ['GET', `/proxy/api/asset/${a.asset.id}/download`],
      ] as const) {
        const res = await h().request(method, path, { headers, body })
        expect([method, path, res.status < 400, res.text.includes(MARK)]).toEqual([method, path, false, false])
      }
      expect(gb.id).toBeTruthy()
      expect((await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', a.guest.id).executeTakeFirstOrThrow()).status).toBe('ADDED')
    })

    async function snapshot(a: A) {
      const db = h().ctx.db
      return {
        event: await db.selectFrom('event').select(['display_name', 'status', 'archived']).where('id', '=', a.event.id).executeTakeFirst(),
        guest: await db.selectFrom('event_visitor').select(['first_name', 'status', 'vip', 'note']).where('id', '=', a.guest.id).executeTakeFirst(),
        guests: (await db.selectFrom('event_visitor').select('id').where('event_id', '=', a.event.id).execute()).length,
        field: await db.selectFrom('event_field').select(['display_name']).where('id', '=', a.field.id).executeTakeFirst(),
        fields: (await db.selectFrom('event_field').select('id').where('event_id', '=', a.event.id).execute()).length,
        tag: await db.selectFrom('tag').select('display_name').where('id', '=', a.tag.id).executeTakeFirst(),
        campaign: await db.selectFrom('campaign').select('display_name').where('id', '=', a.campaign.id).executeTakeFirst(),
        agreement: await db.selectFrom('agreement').select('display_name').where('id', '=', a.agreement.id).executeTakeFirst(),
        shortLink: await db.selectFrom('short_link').select('code').where('id', '=', a.shortLink.id).executeTakeFirst(),
        roles: await db.selectFrom('account').select(['id', 'user_role', 'status']).where('agency_id', '=', a.a.agencyId).orderBy('id').execute(),
        events: (await db.selectFrom('event').select('id').where('agency_id', '=', a.a.agencyId).execute()).length,
        mediaCategory: await db.selectFrom('media_category').select('display_name').where('id', '=', a.mediaCategory.id).executeTakeFirst(),
        mediaEntry: await db.selectFrom('media_entry').select(['display_name', 'category_id']).where('id', '=', a.mediaEntry.id).executeTakeFirst(),
        conflict: await db.selectFrom('checkin_conflict').select('seen_at').where('id', '=', a.conflictId).executeTakeFirst(),
        desks: (await db.selectFrom('checkin_desk').select('id').where('event_id', '=', a.event.id).execute()).length,
      }
    }
  },
  { license: licenseWith(['MEDIA_GALLERY'], { events: 10_000, agencyUsers: 1000 }) },
)
