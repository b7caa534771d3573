import { expect, test } from 'bun:test'
import { openDatabase } from '../../db/database'
import { AppError } from '../../shared/errors'
import { forEachDialect } from '../../testing/harness'
import { isoNow } from '../../db/types'
import { checkpointOf, enqueueTask, registerTaskHandler, saveCheckpoint, startTaskRunner } from './runner'

const runs = new Map<string, number>()
registerTaskHandler('TEST_COUNT', async (ctx, task, payload: { n: number }, progress) => {
  runs.set(`${ctx.dialect}:${task.id}`, (runs.get(`${ctx.dialect}:${task.id}`) ?? 0) + 1)
  await progress.update({ total: payload.n, current: 0 }, true)
  for (let i = 1; i <= payload.n; i++) await progress.update({ current: i, errors: i % 5 === 0 ? 1 : 0 }, i === payload.n)
  return { state: `${payload.n} verarbeitet`, result: { processed: payload.n } }
})
registerTaskHandler('TEST_FAIL', async () => {
  throw new AppError(400, 'INVALID_PARAMETERS')
})
registerTaskHandler('TEST_CRASH', async () => {
  throw new Error('disk on fire')
})
// a long task that runs until the test lets it finish
const gates = new Map<string, () => void>()
registerTaskHandler('TEST_SLOW', async (ctx, task) => {
  await new Promise<void>((resolve) => gates.set(`${ctx.dialect}:${task.id}`, resolve))
  return { state: 'slow done' }
})
registerTaskHandler('TEST_QUICK', async (ctx, task) => {
  runs.set(`${ctx.dialect}:${task.id}`, (runs.get(`${ctx.dialect}:${task.id}`) ?? 0) + 1)
  return { state: 'quick done' }
}, { lane: 'QUICK' })

// a long task in steps with a checkpoint after each, reporting progress after each
const steps = new Map<string, number[]>()
registerTaskHandler('TEST_STEPS', async (ctx, task, payload: { n: number }, progress) => {
  const key = `${ctx.dialect}:${task.id}`
  for (let i = (checkpointOf<{ i: number }>(task)?.i ?? 0) + 1; i <= payload.n; i++) {
    await new Promise((r) => setTimeout(r, 40))
    steps.set(key, [...(steps.get(key) ?? []), i])
    await saveCheckpoint(ctx.db, task.id, { i })
    await progress.update({ current: i, total: payload.n }, true)
  }
  return { state: 'steps done', result: { processed: payload.n } }
})

forEachDialect('background tasks', (h) => {
  test('stopping (SIGTERM) hands a running task back at its next progress report; another runner continues it from its checkpoint', async () => {
    const ctx = h().ctx
    const task = await enqueueTask(ctx.clock, ctx.db, { kind: 'TEST_STEPS', payload: { n: 30 } })
    const key = `${ctx.dialect}:${task.id}`
    const first = startTaskRunner(ctx, { autoStart: false })
    void first.runOnce()
    for (let i = 0; i < 200 && (steps.get(key)?.length ?? 0) < 3; i++) await new Promise((r) => setTimeout(r, 20))
    await first.stop()
    const row = await ctx.db.selectFrom('task').selectAll().where('id', '=', task.id).executeTakeFirstOrThrow()
    // handed back: still RUNNING (not failed), no lease, part done
    expect(row.status).toBe('RUNNING')
    expect(row.locked_until).toBeNull()
    const done = steps.get(key)!.length
    expect(done).toBeGreaterThanOrEqual(3)
    expect(done).toBeLessThan(30)
    // another runner takes it at once (no lease to wait for) and continues after the last step
    const second = startTaskRunner(ctx, { autoStart: false })
    await second.runOnce()
    await second.stop()
    expect((await ctx.db.selectFrom('task').select('status').where('id', '=', task.id).executeTakeFirstOrThrow()).status).toBe('FINISHED')
    expect(steps.get(key)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
  })

  test('a task runs once, reports progress and its result; the agency polls it by id', async () => {
    const admin = await h().admin()
    const task = await enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_COUNT', agencyId: admin.agencyId, accountId: admin.accountId, payload: { n: 12 } })
    let r = await admin.get(`/proxy/api/tasks/${task.id}`)
    expect(r.body).toMatchObject({ id: task.id, status: 'WAIT', taskInfo: { currentCount: 0, totalCount: 0, errorCount: 0, state: null } })
    expect(await h().tasks.runOnce()).toBeGreaterThanOrEqual(1)
    r = await admin.get(`/proxy/api/tasks/${task.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ status: 'FINISHED', taskInfo: { currentCount: 12, totalCount: 12, state: '12 verarbeitet' }, result: { processed: 12 } })
    expect(runs.get(`${h().dialect}:${task.id}`)).toBe(1)
    // another agency does not see it
    const other = await h().admin()
    expect((await other.get(`/proxy/api/tasks/${task.id}`)).status).toBe(404)
    expect((await h().request('GET', `/proxy/api/tasks/${task.id}`)).status).toBe(401)
  })

  test('failures end in ERROR with the error code or message as state', async () => {
    const admin = await h().admin()
    const a = await enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_FAIL', agencyId: admin.agencyId })
    const b = await enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_CRASH', agencyId: admin.agencyId })
    const c = await enqueueTask(h().clock, h().ctx.db, { kind: 'NO_SUCH_KIND', agencyId: admin.agencyId })
    await h().tasks.runOnce()
    expect((await admin.get(`/proxy/api/tasks/${a.id}`)).body).toMatchObject({ status: 'ERROR', taskInfo: { state: 'INVALID_PARAMETERS' } })
    expect((await admin.get(`/proxy/api/tasks/${b.id}`)).body).toMatchObject({ status: 'ERROR', taskInfo: { state: 'disk on fire' } })
    expect((await admin.get(`/proxy/api/tasks/${c.id}`)).body).toMatchObject({ status: 'ERROR', taskInfo: { state: 'no handler for task kind NO_SUCH_KIND' } })
  })

  test('a task scheduled for later waits for its time', async () => {
    const admin = await h().admin()
    const task = await enqueueTask(h().clock, h().ctx.db, { kind: 'TEST_COUNT', agencyId: admin.agencyId, payload: { n: 1 }, runAfter: new Date(h().clock.now().getTime() + 3600_000) })
    await h().tasks.runOnce()
    expect((await admin.get(`/proxy/api/tasks/${task.id}`)).body.status).toBe('WAIT')
    h().clock.advance(3600_000 + 1000)
    await h().tasks.runOnce()
    expect((await admin.get(`/proxy/api/tasks/${task.id}`)).body.status).toBe('FINISHED')
  })

  // long tasks only, then long and quick tasks mixed (the quick lane claims exclusively too)
  for (const [what, kindOf] of [
    ['long tasks', () => 'TEST_COUNT'],
    ['quick and long tasks', (i: number) => (i % 2 ? 'TEST_QUICK' : 'TEST_COUNT')],
  ] as const) {
    test(`two runners on one database run ${what}, each exactly once`, async () => {
      const ctx = h().ctx
      const second = await openDatabase(ctx.config.databaseTarget, { poolSize: 4 })
      try {
        const ids: number[] = []
        for (let i = 0; i < 12; i++) ids.push((await enqueueTask(ctx.clock, ctx.db, { kind: kindOf(i), payload: { n: 2 } })).id)
        const a = startTaskRunner(ctx, { autoStart: false })
        const b = startTaskRunner({ ...ctx, db: second.db }, { autoStart: false })
        await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()])
        await a.stop()
        await b.stop()
        expect(ids.map((id) => runs.get(`${h().dialect}:${id}`))).toEqual(ids.map(() => 1))
        const rows = await ctx.db.selectFrom('task').select(['status', 'attempts']).where('id', 'in', ids).execute()
        expect(rows.every((r) => r.status === 'FINISHED' && r.attempts === 1)).toBe(true)
      } finally {
        await second.close()
      }
    })
  }

  test('run_after comes from the clock, not from the database: a task is due at once even when the clock and the database disagree', async () => {
    const { ctx, clock } = h()
    clock.advance(-3600_000)
    try {
      const task = await enqueueTask(clock, ctx.db, { kind: 'TEST_COUNT', payload: { n: 1 } })
      expect(task.run_after).toBe(task.created_at)
      expect(Math.abs(new Date(task.run_after).getTime() - clock.now().getTime())).toBeLessThan(5000)
      await h().tasks.runOnce()
      expect((await ctx.db.selectFrom('task').select('status').where('id', '=', task.id).executeTakeFirstOrThrow()).status).toBe('FINISHED')
    } finally {
      clock.advance(3600_000)
    }
  })

  test('a run_after with microseconds inside the current millisecond is due', async () => {
    const { ctx } = h()
    const at = new Date(Date.now() + 86_400_000)
    at.setUTCMilliseconds(123)
    // as a database default or another writer may store it: microseconds past the runner's millisecond
    const micro = isoNow(at).replace('.123Z', '.123456Z')
    const row = await ctx.db.insertInto('task').values({ kind: 'TEST_COUNT', payload: '{"n":1}', run_after: micro }).returning('id').executeTakeFirstOrThrow()
    const frozen = startTaskRunner({ ...ctx, clock: { now: () => new Date(at) } }, { autoStart: false })
    await frozen.runOnce()
    await frozen.stop()
    expect((await ctx.db.selectFrom('task').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('FINISHED')
  })

  test('a quick task (a mail someone waits for) runs while a long one runs; each lane keeps one task at a time', async () => {
    const { ctx, clock } = h()
    const slow = await enqueueTask(clock, ctx.db, { kind: 'TEST_SLOW' })
    const slow2 = await enqueueTask(clock, ctx.db, { kind: 'TEST_SLOW' })
    const runner = startTaskRunner(ctx, { autoStart: false })
    const pass = runner.runOnce()
    const key = (id: number) => `${ctx.dialect}:${id}`
    for (let i = 0; i < 200 && !gates.has(key(slow.id)); i++) await Bun.sleep(10)
    expect(gates.has(key(slow.id))).toBe(true)
    const quick = await enqueueTask(clock, ctx.db, { kind: 'TEST_QUICK' })
    runner.wake()
    const status = async (id: number) => (await ctx.db.selectFrom('task').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
    for (let i = 0; i < 200 && (await status(quick.id)) !== 'FINISHED'; i++) await Bun.sleep(10)
    expect(await status(quick.id)).toBe('FINISHED')
    // the long lane still runs the first slow task and has not started the second
    expect([await status(slow.id), await status(slow2.id)]).toEqual(['RUNNING', 'WAIT'])
    gates.get(key(slow.id))!()
    for (let i = 0; i < 200 && !gates.has(key(slow2.id)); i++) await Bun.sleep(10)
    gates.get(key(slow2.id))!()
    await pass
    await runner.stop()
    expect([await status(slow.id), await status(slow2.id)]).toEqual(['FINISHED', 'FINISHED'])
  })
})
