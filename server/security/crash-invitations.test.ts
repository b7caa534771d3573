// Integrity after a crash: the invitation task (one transaction per guest: status, places, token,
// outbox mail and the task's checkpoint) killed with SIGKILL in the middle and taken again by a new
// process after its lease invites every guest exactly once. Re-inviting an INVITED guest is allowed
// by the status rules, so without the checkpoint in the guest's transaction the second run would
// start over and mail the first guests twice.
import { describe, expect } from 'bun:test'
import { patientTests } from '../testing/harness'
import type { ServerProcess } from '../testing/process'
import { bootAgency, createEvent, expireLease, onBothDialects, type Setup, start, waitFor, waitForTaskEnd } from './crash-harness'

patientTests()

const GUESTS = 1500

async function crashAndResume(setup: Setup) {
  const q = setup.query
  let proc: ServerProcess | null = await start(setup)
  let first: ServerProcess | null = proc
  try {
    const admin = await bootAgency(setup, () => proc!)
    const eventId = await createEvent(admin, 'Einladungsfest')
    // the guest list comes from an import (fast, and itself crash-safe)
    const lines = ['Vorname;Nachname;E-Mail', ...Array.from({ length: GUESTS }, (_, i) => `Gast${i};Nummer${i};gast${i}@example.org`)]
    const form = new FormData()
    form.append('file', new File([`${lines.join('\n')}\n`], 'gaeste.csv', { type: 'text/csv' }))
    const up = await admin.api('POST', `/proxy/api/events/${eventId}/imports`, form)
    expect(up.status).toBe(201)
    const imp = await admin.api('POST', `/proxy/api/events/${eventId}/imports/${up.body.id}/run`, { mapping: up.body.suggestedMapping })
    expect(imp.status).toBe(202)
    expect(await waitForTaskEnd(q, imp.body.id)).toBe('FINISHED')

    const run = await admin.api('POST', `/proxy/api/events/${eventId}/invitations`, {})
    expect(run.status).toBe(202)
    expect(run.body.taskInfo.totalCount).toBe(GUESTS)
    const taskId = run.body.id
    const mailed = async () => Number((await q(`select count(*) as n from mail_outbox where event_id = $1`, [eventId]))[0].n)
    await waitFor(async () => ((await mailed()) > 0 ? true : undefined), 20_000)
    first.proc.kill('SIGKILL')
    await first.exited
    first = null
    const seen = await mailed()
    expect(seen).toBeGreaterThan(0)
    expect(seen).toBeLessThan(GUESTS) // really in the middle
    expect((await q('select status from task where id = $1', [taskId]))[0].status).toBe('RUNNING')

    await expireLease(q, taskId)
    proc = await start(setup)
    expect(await waitForTaskEnd(q, taskId)).toBe('FINISHED')
    const [done] = await q('select state, result from task where id = $1', [taskId])
    expect(done.state).toBe(`INVITED:${GUESTS}:0`)
    expect(JSON.parse(done.result)).toEqual({ sent: GUESTS, failed: 0, reasons: {} })
    // every guest invited, and mailed exactly once
    const [mails] = await q('select count(*) as n, count(distinct visitor_id) as guests from mail_outbox where event_id = $1', [eventId])
    expect({ n: Number(mails.n), guests: Number(mails.guests) }).toEqual({ n: GUESTS, guests: GUESTS })
    const [invited] = await q(`select count(*) as n from event_visitor where event_id = $1 and status = 'INVITED'`, [eventId])
    expect(Number(invited.n)).toBe(GUESTS)
  } finally {
    first?.proc.kill('SIGKILL')
    if (proc !== first) await proc?.stop()
    await setup.close()
  }
}

describe('invitations killed with SIGKILL in the middle mail every guest exactly once', () => {
  onBothDialects('invitations', crashAndResume)
})
