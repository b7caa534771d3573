// Integrity after a crash: a CSV import whose server process is killed with SIGKILL in the middle is
// taken again (here: once its lease is made to run out) by a new process, and ends with every row
// imported exactly once. Before, the second run started from the first row again: the rows without
// e-mail came twice, and the rows with one counted as "already registered" and failed the run.
import { describe, expect } from 'bun:test'
import { patientTests } from '../testing/harness'
import type { ServerProcess } from '../testing/process'
import { bootAgency, createEvent, expireLease, onBothDialects, type Setup, start, waitFor, waitForTaskEnd } from './crash-harness'

patientTests()

const ROWS = 4000 // eight batches of 500
/** half the rows carry an e-mail address, every other row an escort and tags */
function csv(): string {
  const lines = ['Vorname;Nachname;E-Mail;Tags;Begleitung 1 Vorname;Begleitung 1 Nachname']
  for (let i = 1; i <= ROWS; i++) lines.push(`Gast${i};Nummer${i};${i % 2 ? `gast${i}@example.org` : ''};${i % 2 ? 'Presse|Nord' : ''};${i % 2 ? '' : `Begleitung${i}`};${i % 2 ? '' : 'B'}`)
  return `${lines.join('\n')}\n`
}

async function crashAndResume(setup: Setup) {
  const q = setup.query
  let proc: ServerProcess | null = await start(setup)
  let first: ServerProcess | null = proc
  try {
    const admin = await bootAgency(setup, () => proc!)
    const eventId = await createEvent(admin, 'Absturzfest')
    const form = new FormData()
    form.append('file', new File([csv()], 'gaeste.csv', { type: 'text/csv' }))
    const up = await admin.api('POST', `/proxy/api/events/${eventId}/imports`, form)
    expect(up.status).toBe(201)
    expect(up.body.rowCount).toBe(ROWS)
    const run = await admin.api('POST', `/proxy/api/events/${eventId}/imports/${up.body.id}/run`, { mapping: up.body.suggestedMapping })
    expect(run.status).toBe(202)
    const taskId = run.body.id

    // kill -9 once some batches are committed and others are not
    const imported = async () => Number((await q('select count(*) as n from event_visitor where import_task_id = $1', [taskId]))[0].n)
    await waitFor(async () => ((await imported()) > 0 ? true : undefined), 20_000)
    first.proc.kill('SIGKILL')
    await first.exited
    first = null
    const seen = await imported()
    expect(seen).toBeGreaterThan(0)
    expect(seen).toBeLessThan(ROWS) // really in the middle
    const [task] = await q('select status from task where id = $1', [taskId])
    expect(task.status).toBe('RUNNING')

    await expireLease(q, taskId)
    proc = await start(setup)
    await waitForTaskEnd(q, taskId)
    const [done] = await q('select status, state, result from task where id = $1', [taskId])
    expect({ status: done.status, state: done.state }).toEqual({ status: 'FINISHED', state: `IMPORTED:${ROWS}:0` })
    expect(JSON.parse(done.result).imported).toBe(ROWS)
    // every row exactly once
    const [counts] = await q('select count(*) as n, count(distinct first_name) as names from event_visitor where event_id = $1', [eventId])
    expect({ n: Number(counts.n), names: Number(counts.names) }).toEqual({ n: ROWS, names: ROWS })
    const [escorts] = await q('select count(*) as n from escort_person e join event_visitor v on v.id = e.visitor_id where v.event_id = $1', [eventId])
    expect(Number(escorts.n)).toBe(ROWS / 2)
    const [tags] = await q('select count(*) as n from visitor_tag t join event_visitor v on v.id = t.visitor_id where v.event_id = $1', [eventId])
    expect(Number(tags.n)).toBe(ROWS) // two tags on every other row
  } finally {
    first?.proc.kill('SIGKILL')
    if (proc !== first) await proc?.stop()
    await setup.close()
  }
}

describe('a CSV import killed with SIGKILL in the middle ends with every row exactly once', () => {
  onBothDialects('import', crashAndResume)
})
