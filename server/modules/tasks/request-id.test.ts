// Issue 22: the request id follows the work a request queues. A mail and a task queued during a
// request record its id, and the worker's and runner's log lines about them carry it.
import { expect, test } from 'bun:test'
import { createLogger } from '../../logger'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { runInRequest } from '../../http/request-context'
import { enqueueTask, registerTaskHandler } from './runner'

const lines: string[] = []
registerTaskHandler('TEST_REQID', async () => ({ state: 'ok' }))
registerTaskHandler('TEST_REQID_FAIL', async () => {
  throw new Error('nope')
})
const records = () => lines.map((l) => JSON.parse(l))

forEachDialect('the request id in mails and tasks', (h) => {
  test('a registration request with an x-request-id: the queued mail records it and the worker logs it when sent', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 10 }))).body
    const email = uniqueEmail('reqid')
    const reqId = `reg-${h().dialect}-1`
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, {
      body: { salutation: 'Frau', firstName: 'Rita', lastName: 'Request', email },
      headers: { 'x-request-id': reqId },
    })
    expect(r.status).toBe(201)
    const row = await h().ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow()
    expect(row.request_id).toBe(reqId)
    await h().deliverMail()
    await h().smtp.waitFor((m) => m.to.includes(email))
    expect(records()).toContainEqual(expect.objectContaining({ msg: 'mail sent', mailId: row.id, reqId }))
  })

  test('a forgotten-password request with an x-request-id: its task records the id and the runner logs it when done', async () => {
    const reqId = `forgot-${h().dialect}-1`
    const email = uniqueEmail('reqid-forgot')
    const r = await h().request('POST', '/proxy/api/public/password/forgot', { body: { email }, headers: { 'x-request-id': reqId, 'x-forwarded-for': '203.0.113.77' } })
    expect(r.status).toBe(200)
    const task = await h().ctx.db.selectFrom('task').selectAll().where('request_id', '=', reqId).executeTakeFirstOrThrow()
    expect(task.kind).toBe('PASSWORD_RESET_MAIL')
    while ((await h().tasks.runOnce()) > 0) {}
    expect(records()).toContainEqual(expect.objectContaining({ msg: 'task done', taskId: task.id, reqId }))
  })

  test('a task queued during a request records its id; the runner logs it when the task is done or failed', async () => {
    const reqId = `task-${h().dialect}-1`
    const rc = { reqId, clientIp: () => '127.0.0.1' }
    const ok = await runInRequest(rc, () => enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_REQID' }))
    const bad = await runInRequest(rc, () => enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_REQID_FAIL' }))
    const outside = await enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_REQID' })
    expect(ok.request_id).toBe(reqId)
    expect(bad.request_id).toBe(reqId)
    expect(outside.request_id).toBeNull()
    while ((await h().tasks.runOnce()) > 0) {}
    expect(records()).toContainEqual(expect.objectContaining({ msg: 'task done', taskId: ok.id, reqId }))
    expect(records()).toContainEqual(expect.objectContaining({ msg: 'task failed', taskId: bad.id, reqId }))
    expect(records()).toContainEqual(expect.objectContaining({ msg: 'task done', taskId: outside.id, reqId: null }))
  })
}, { log: createLogger('info', (l) => lines.push(l)) })
