// Background work runs exactly once across processes, also when one dies mid-task (docs/operations.md
// "Several processes"): process 1 sends invitations to 400 guests and is killed with SIGKILL halfway;
// process 2 (started afterwards, own empty data dir) takes the task over once its lease has run out
// and continues after the last committed guest. Every guest is invited once, gets one invitation
// mail, and the task counts 400 sent.
import { describe, expect, test } from 'bun:test'
import { eventBody, postgresAvailable } from '../testing/harness'
import { processesOnPostgres } from '../testing/two-processes'

const GUESTS = 400

describe.if(postgresAvailable())('a task taken over after its process was killed', () => {
  const procs = processesOnPostgres(1, { smtp: true, env: { EINLASS_TASK_LEASE_SECONDS: '3' } })

  test(`SIGKILL during invitations to ${GUESTS} guests: another process finishes them, nobody invited or mailed twice`, async () => {
    const { send, query, smtp } = procs()
    const one = procs().all[0]
    const admin = await procs().setupAgency('admin@uebernahme.example')
    const e = await send(one, 'POST', '/proxy/api/events', eventBody({ maxVisitors: 1000 }), { cookie: admin })
    expect(e.status).toBe(201)
    const eventId = (await e.json()).id as number
    for (let i = 0; i < GUESTS; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, GUESTS - i) }, (_, k) =>
          send(one, 'POST', `/proxy/api/events/${eventId}/visitors`, { salutation: 'Frau', firstName: 'Gast', lastName: `Nr${i + k}`, email: `gast${i + k}@uebernahme.example` }, { cookie: admin }),
        ),
      )
      expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201))
    }
    const started = await send(one, 'POST', `/proxy/api/events/${eventId}/invitations`, { filter: {} }, { cookie: admin })
    expect(started.status).toBe(202)
    const taskId = (await started.json()).id as number

    // kill it once some guests are invited and before all are
    const invited = async () => Number((await query("select count(*)::int as n from event_visitor where event_id = $1 and status = 'INVITED'", [eventId]))[0].n)
    const deadline = Date.now() + 60_000
    for (;;) {
      const n = await invited()
      if (n >= 20) break
      expect(Date.now()).toBeLessThan(deadline)
      await Bun.sleep(10)
    }
    one.proc.kill('SIGKILL')
    await one.exited
    const atKill = await invited()
    expect(atKill).toBeLessThan(GUESTS)
    const [t] = await query('select status, attempts from task where id = $1', [taskId])
    expect(t).toMatchObject({ status: 'RUNNING', attempts: 1 })

    // a new process with an empty data dir joins and takes the task over after the lease
    await procs().start()
    const until = Date.now() + 90_000
    for (;;) {
      const [row] = await query('select status, attempts, state, result from task where id = $1', [taskId])
      if (row.status === 'FINISHED') {
        expect(row.attempts).toBe(2)
        expect(row.state).toBe(`INVITED:${GUESTS}:0`)
        expect(JSON.parse(row.result)).toMatchObject({ sent: GUESTS, failed: 0 })
        break
      }
      expect(Date.now()).toBeLessThan(until)
      await Bun.sleep(200)
    }
    expect(await invited()).toBe(GUESTS)
    // one invitation mail per guest in the outbox, and each delivered once
    const outbox = await query("select to_address, count(*)::int as n from mail_outbox where event_id = $1 group by to_address having count(*) <> 1", [eventId])
    expect(outbox).toEqual([])
    expect(Number((await query('select count(*)::int as n from mail_outbox where event_id = $1', [eventId]))[0].n)).toBe(GUESTS)
    const sentBy = Date.now() + 90_000
    while (Number((await query("select count(*)::int as n from mail_outbox where event_id = $1 and status = 'SENT'", [eventId]))[0].n) < GUESTS) {
      expect(Date.now()).toBeLessThan(sentBy)
      await Bun.sleep(200)
    }
    const received = new Map<string, number>()
    for (const m of smtp!.mails) for (const to of m.to) if (to.endsWith('@uebernahme.example') && to.startsWith('gast')) received.set(to, (received.get(to) ?? 0) + 1)
    expect(received.size).toBe(GUESTS)
    // a mail whose SMTP answer came just before the kill, but not its SENT, may go twice (documented);
    // at most the one batch in flight at the kill
    const twice = [...received.values()].filter((n) => n > 1).length
    expect(twice).toBeLessThanOrEqual(1)
  }, 240_000)
})
