// POST /api/guest/notifications (guest-side.md 2, 3, 9): the guest's mails about registrations, 20 a page.
import { expect, test } from 'bun:test'
import { sql } from 'kysely'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { enqueueMail } from '../mail/outbox'
import { guestNotifications } from './service'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'

forEachDialect(
  'guest notifications',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    test('setup', async () => {
      admin = await h().admin()
    })
    async function invitedGuest(eventId: number) {
      const g = await addGuest(admin, eventId)
      expect((await admin.post(`/proxy/api/events/${eventId}/visitors/${g.id}/invite`, {})).status).toBe(200)
      const userId = (await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', g.id).executeTakeFirstOrThrow()).user_id!
      const agent = h().agent()
      agent.headers['x-guest-token'] = await issueAccessToken(h().ctx, h().ctx.db, userId, GUEST_ACCESS)
      return { ...g, userId, agent }
    }

    test('a mail to the guest is a notification; a delivery failure shows as failed; other guests see nothing', async () => {
      const e = await createEvent(admin, { displayName: 'Herbstball' })
      const g = await invitedGuest(e.id)
      const r = await g.agent.post('/proxy/api/guest/notifications', { page: 0 })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ totalElements: 1, totalPages: 1, page: 0, size: 20 })
      expect(r.body.notifications[0]).toMatchObject({ eventId: e.id, eventName: 'Herbstball', title: 'Einladung: Herbstball', type: 'EMAIL', failed: false, eventLink: `/public/event/${e.id}` })
      expect(r.body.notifications[0].date).toMatch(/^\d{4}-\d\d-\d\dT/)
      // the message is what the mail said (its text, without links: they carry the guest's tokens)
      await h().deliverMail()
      const sent = (await g.agent.post('/proxy/api/guest/notifications', { page: 0 })).body.notifications[0]
      const text = (await h().ctx.db.selectFrom('mail_outbox').select('text').where('id', '=', sent.id).executeTakeFirstOrThrow()).text
      expect(text).toContain('Herbstball')
      expect(typeof sent.message).toBe('string')
      expect(sent.message).toContain('Herbstball')
      expect(sent.message.length).toBeLessThanOrEqual(400)
      expect(sent.message).not.toMatch(/https?:|token=/)
      // the worker gives up on the mail: the notification turns failed
      await h().ctx.db.updateTable('mail_outbox').set({ status: 'FAILED', last_error: '550 no such user' }).where('visitor_id', '=', g.id).execute()
      expect((await g.agent.post('/proxy/api/guest/notifications', {})).body.notifications[0].failed).toBe(true)
      // an access-link mail (no registration) is not a notification
      const other = await invitedGuest(e.id)
      await h().ctx.db.transaction().execute((trx) => enqueueMail(trx, { kind: 'ACCESS_LINK', to: other.email, subject: 'Ihr Link', html: '', text: '', userId: other.userId }))
      const mine = await other.agent.post('/proxy/api/guest/notifications', {})
      expect(mine.body.totalElements).toBe(1)
      expect(mine.body.notifications.map((n: any) => n.id)).not.toContain(r.body.notifications[0].id)
      // no guest, bad paging
      expect((await h().agent().post('/proxy/api/guest/notifications', {})).status).toBe(401)
      expect((await g.agent.post('/proxy/api/guest/notifications', { page: -1 })).status).toBe(400)
      expect((await g.agent.post('/proxy/api/guest/notifications', { size: 21 })).status).toBe(400)
    })

    test('10,000 notifications: 20 a page, newest first, the last page; read by index, no sort', async () => {
      const e = await createEvent(admin)
      const g = await invitedGuest(e.id)
      const db = h().ctx.db
      const rows = Array.from({ length: 9_999 }, (_, i) => ({ kind: 'VISITOR_APPROVED', to_address: g.email, subject: `Nachricht ${i + 1}`, html: '', text: '', attachments: '[]', user_id: g.userId, visitor_id: g.id, event_id: e.id, status: 'SENT' as const }))
      for (let i = 0; i < rows.length; i += 500) await db.insertInto('mail_outbox').values(rows.slice(i, i + 500)).execute()
      // someone else's mails do not count
      await db.insertInto('mail_outbox').values(rows.slice(0, 300).map((r) => ({ ...r, user_id: null }))).execute()
      // what autovacuum does after a bulk insert on Postgres (statistics, visibility map for index-only scans)
      if (h().dialect === 'postgres') await sql`vacuum analyze mail_outbox`.execute(db)
      const first = await g.agent.post('/proxy/api/guest/notifications', { page: 0 })
      expect(first.body).toMatchObject({ totalElements: 10_000, totalPages: 500 })
      expect(first.body.notifications.length).toBe(20)
      expect(first.body.notifications[0].title).toBe('Nachricht 9999')
      const last = await g.agent.post('/proxy/api/guest/notifications', { page: 499 })
      expect(last.body.notifications.length).toBe(20)
      expect(last.body.notifications.at(-1).title).toBe('Einladung: Sommerfest')
      // the page and the count come from the index (user_id, id, visitor_id), never a sort of the guest's rows
      const plan = h().dialect === 'postgres'
        ? (await sql<{ 'QUERY PLAN': string }>`explain select id from mail_outbox where user_id = ${g.userId} and visitor_id is not null order by user_id desc, id desc limit 20 offset 9980`.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n')
        : (await sql<{ detail: string }>`explain query plan select id from mail_outbox where user_id = ${g.userId} and visitor_id is not null order by user_id desc, id desc limit 20 offset 9980`.execute(db)).rows.map((r) => r.detail).join('\n')
      // (Postgres may walk the primary key backwards instead when nearly every row is this guest's: also no sort)
      expect(plan).toMatch(h().dialect === 'postgres' ? /Index (Only )?Scan/ : /mail_outbox_guest_notification_idx/)
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/)
      // pages anywhere in the list answer full pages (their speed is the plan's: no sort, an index walk)
      for (let i = 0; i < 5; i++) {
        const r = await guestNotifications(h().ctx, g.userId, { page: (i * 97) % 500, size: 20 })
        expect(r.notifications.length).toBe(20)
      }
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
