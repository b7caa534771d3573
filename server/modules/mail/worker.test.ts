// The mail outbox against a real SMTP server: retries with backoff, permanent failures recorded,
// mails written with their cause (or not at all), nothing lost without SMTP, never sent twice.
import { expect, test } from 'bun:test'
import { openDatabase } from '../../db/database'
import { createLogger } from '../../logger'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { enqueueMail } from './outbox'
import { BACKOFF_MS, MAX_ATTEMPTS, startMailWorker } from './worker'

const registration = (email: string) => ({ salutation: 'Frau', firstName: 'Mia', lastName: 'Mail', email })

forEachDialect('mail outbox and worker', (h) => {
  async function register(maxVisitors = 100) {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors }))).body
    const email = uniqueEmail('mail')
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: registration(email) })
    expect(r.status).toBe(201)
    return { event, email, visitorId: r.body.visitorId as number }
  }
  const outboxFor = (email: string) => h().ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow()

  test('the confirmation is written with the registration and delivered over SMTP', async () => {
    const { email } = await register()
    const row = await outboxFor(email)
    expect(row).toMatchObject({ status: 'PENDING', attempts: 0, kind: 'REGISTRATION_CONFIRMATION' })
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.from).toBe('einlass@localhost')
    expect(mail.subject).toBe('Ihre Anmeldung: Sommerfest')
    expect(await outboxFor(email)).toMatchObject({ status: 'SENT', attempts: 1, last_error: null, locked_until: null })
    expect((await outboxFor(email)).message_id).toBeTruthy()
  })

  test('the confirmation is queued as a template with its parameters and rendered when it is sent; the row keeps what was sent', async () => {
    const { email } = await register()
    const queued = await outboxFor(email)
    expect(queued).toMatchObject({ template: 'REGISTRATION_CONFIRMATION', subject: '', html: '', text: '' })
    const params = JSON.parse(queued.params!)
    expect(params.status).toBe('CONFIRMED')
    expect(params.token).toMatch(/^[a-z0-9]+\.[a-z0-9]+$/)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.text).toContain('Sommerfest')
    expect(mail.text).toContain(`token=${params.token}`)
    const sent = await outboxFor(email)
    expect(sent).toMatchObject({ status: 'SENT', subject: 'Ihre Anmeldung: Sommerfest' })
    expect(sent.text).toBe(mail.text.trim())
    expect(sent.html).toContain('Sommerfest')
  })

  test('a confirmation whose registration is gone before delivery fails at once instead of being retried', async () => {
    const { email, visitorId } = await register()
    await h().ctx.db.deleteFrom('event_visitor').where('id', '=', visitorId).execute()
    await h().deliverMail()
    expect(await outboxFor(email)).toMatchObject({ status: 'FAILED', attempts: 1 })
    expect((await outboxFor(email)).last_error).toContain('gone')
    expect(h().smtp.to(email)).toHaveLength(0)
  })

  test('a temporary failure is retried after the backoff, not before', async () => {
    const { email } = await register()
    h().smtp.failNext = 1
    await h().deliverMail()
    let row = await outboxFor(email)
    expect(row.status).toBe('PENDING')
    expect(row.attempts).toBe(1)
    expect(row.last_error).toContain('451')
    const due = new Date(row.next_attempt_at).getTime() - h().clock.now().getTime()
    expect(due).toBeGreaterThan(BACKOFF_MS[0] - 2000)
    expect(due).toBeLessThanOrEqual(BACKOFF_MS[0])

    await h().deliverMail()
    expect(h().smtp.to(email)).toHaveLength(0)
    h().clock.advance(BACKOFF_MS[0] + 1000)
    await h().deliverMail()
    await h().smtp.waitFor((m) => m.to.includes(email))
    row = await outboxFor(email)
    expect(row).toMatchObject({ status: 'SENT', attempts: 2, last_error: null })
  })

  test('after the last attempt the mail is FAILED, with the error and the guest’s mail_error flag', async () => {
    const { email, visitorId } = await register()
    h().smtp.failNext = MAX_ATTEMPTS
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await h().deliverMail()
      h().clock.advance((BACKOFF_MS[i] ?? 0) + 1000)
    }
    const row = await outboxFor(email)
    expect(row).toMatchObject({ status: 'FAILED', attempts: MAX_ATTEMPTS })
    expect(row.last_error).toContain('try again later')
    const visitor = await h().ctx.db.selectFrom('event_visitor').select('mail_error').where('id', '=', visitorId).executeTakeFirstOrThrow()
    expect(visitor.mail_error).toBe(1)
    // a failed mail is not tried again
    h().smtp.failNext = 0
    h().clock.advance(48 * 3600_000)
    await h().deliverMail()
    expect(h().smtp.to(email)).toHaveLength(0)
  })

  test('a permanent SMTP refusal (5xx) fails at once', async () => {
    const { email, visitorId } = await register()
    h().smtp.failNext = 1
    h().smtp.failCode = 550
    try {
      await h().deliverMail()
    } finally {
      h().smtp.failCode = 451
    }
    const row = await outboxFor(email)
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 })
    expect(row.last_error).toContain('550')
    expect((await h().ctx.db.selectFrom('event_visitor').select('mail_error').where('id', '=', visitorId).executeTakeFirstOrThrow()).mail_error).toBe(1)
  })

  test('a mail belongs to its transaction: rolled back with its cause, and a refused registration queues none', async () => {
    const email = uniqueEmail('rollback')
    await expect(
      h().ctx.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, { kind: 'TEST', to: email, subject: 's', html: '<p>h</p>', text: 't' })
        throw new Error('the cause failed')
      }),
    ).rejects.toThrow('the cause failed')
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute()).toEqual([])

    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 1 }))).body
    expect((await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: registration(uniqueEmail('first')) })).status).toBe(201)
    const late = uniqueEmail('late')
    const refused = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: registration(late) })
    expect(refused.body.errorType).toBe('EVENT_FULL')
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', late).execute()).toEqual([])
  })

  test('a burst of wake-ups sends what is due, once', async () => {
    const email = uniqueEmail('woken')
    await enqueueMail(h().ctx.db, { kind: 'TEST', to: email, subject: 'Geweckt', html: '<p>x</p>', text: 'x' })
    const worker = startMailWorker(h().ctx, { autoStart: false })
    for (let i = 0; i < 100; i++) worker.wake()
    await h().smtp.waitFor((m) => m.to.includes(email), 3000)
    await worker.stop()
    expect((await outboxFor(email)).status).toBe('SENT')
    expect(h().smtp.to(email)).toHaveLength(1)
  })

  test('stopping mid-batch (SIGTERM): the mail in flight is finished, the rest of the claim given back at once', async () => {
    const tag = uniqueEmail('drain').split('@')[0]
    const addresses = Array.from({ length: 6 }, (_, i) => `${tag}.${i}@example.org`)
    for (const to of addresses) await enqueueMail(h().ctx.db, { kind: 'TEST', to, subject: `drain ${to}`, html: '<p>x</p>', text: 'x' })
    h().smtp.delayMs = 300
    try {
      const worker = startMailWorker(h().ctx, { autoStart: false })
      void worker.runOnce()
      await h().smtp.waitFor((m) => m.to[0] === addresses[0], 5000)
      await worker.stop()
    } finally {
      h().smtp.delayMs = 0
    }
    const rows = await h().ctx.db.selectFrom('mail_outbox').select(['to_address', 'status', 'locked_until']).where('to_address', 'in', addresses).orderBy('id').execute()
    const sent = rows.filter((r) => r.status === 'SENT')
    // the first, perhaps the second that was already under way; not the whole batch of six
    expect(sent.length).toBeGreaterThanOrEqual(1)
    expect(sent.length).toBeLessThan(addresses.length)
    // the others are free for any worker now, not held for the lease
    expect(rows.filter((r) => r.status === 'PENDING').every((r) => r.locked_until === null)).toBe(true)
    // and a next worker sends each of them once
    const next = startMailWorker(h().ctx, { autoStart: false })
    await next.runOnce()
    await next.stop()
    for (const to of addresses) expect(h().smtp.to(to)).toHaveLength(1)
  })

  test('two workers on one database never send a mail twice', async () => {
    const ctx = h().ctx
    const second = await openDatabase(ctx.config.databaseTarget, { poolSize: 4 })
    const tag = uniqueEmail('race').split('@')[0]
    try {
      const addresses = Array.from({ length: 60 }, (_, i) => `${tag}.${i}@example.org`)
      for (const to of addresses) await enqueueMail(ctx.db, { kind: 'TEST', to, subject: `race ${to}`, html: '<p>x</p>', text: 'x' })
      const a = startMailWorker(ctx, { autoStart: false })
      const b = startMailWorker({ ...ctx, db: second.db }, { autoStart: false })
      const handled = await Promise.all([a.runOnce(), b.runOnce()])
      await Promise.all([a.runOnce(), b.runOnce()])
      await a.stop()
      await b.stop()
      const received = h().smtp.mails.filter((m) => m.to[0]?.startsWith(`${tag}.`)).map((m) => m.to[0])
      expect(received.length).toBe(60)
      expect(new Set(received).size).toBe(60)
      // both took part: the claim, not luck, kept them apart
      expect(handled.every((n) => n > 0)).toBe(true)
      const rows = await ctx.db.selectFrom('mail_outbox').select(['status', 'attempts']).where('to_address', 'in', addresses).execute()
      expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1)).toBe(true)
    } finally {
      await second.close()
    }
  })
})

forEachDialect(
  'mail without SMTP configured',
  (h) => {
    test('mails stay PENDING with one log line, and go out once SMTP_URL is set', async () => {
      const lines: string[] = []
      const ctx = { ...h().ctx, log: createLogger('info', (l) => lines.push(l)) }
      const email = uniqueEmail('later')
      await enqueueMail(ctx.db, { kind: 'TEST', to: email, subject: 'Später', html: '<p>später</p>', text: 'später' })
      const idle = startMailWorker(ctx, { autoStart: false })
      await idle.runOnce()
      await idle.runOnce()
      await idle.stop()
      const row = await ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ status: 'PENDING', attempts: 0 })
      const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.msg.includes('SMTP_URL'))
      expect(warnings).toEqual([expect.objectContaining({ level: 'warn', msg: 'SMTP_URL is not set: mails stay in the outbox until it is', pending: 1 })])

      // the operator sets SMTP_URL and restarts: the waiting mail goes out
      const configured = { ...ctx, config: { ...ctx.config, mail: { ...ctx.config.mail, smtp_url: h().smtp.url } } }
      const worker = startMailWorker(configured, { autoStart: false })
      await worker.runOnce()
      await worker.stop()
      await h().smtp.waitFor((m) => m.to.includes(email))
      expect((await ctx.db.selectFrom('mail_outbox').select('status').where('to_address', '=', email).executeTakeFirstOrThrow()).status).toBe('SENT')
    })
  },
  { smtp: false },
)
