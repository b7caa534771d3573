// Background tasks (imports, mass mailings, deletions, mails looked up after the answer): a row in
// `task`, picked up by the runner of any server process through a conditional claim, with progress
// the UI polls every 5 s. Two lanes per process, each running one task at a time: QUICK tasks (a
// password-reset or access-link mail someone waits for) never queue behind a LONG one (a CSV import
// of 50,000 rows). Every kind belongs to one lane, so a claim stays exclusive across processes.
import type { Clock } from '../../clock'
import type { AppContext } from '../../context'
import { prepared } from '../../db/prepared'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { currentRequest } from '../../http/request-context'
import { serialPasses } from './passes'
import type { TaskRow } from './tasks.table'

export interface TaskProgress {
  /** sets currentCount/totalCount/errorCount/state; cheap to call often (writes at most every 250 ms) */
  update(p: { current?: number; total?: number; errors?: number; state?: string | null }, force?: boolean): Promise<void>
}

export type TaskHandler = (ctx: AppContext, task: TaskRow, payload: any, progress: TaskProgress) => Promise<{ state?: string | null; result?: unknown } | void>

/** QUICK: seconds at most, someone waits for it (mails). LONG (default): may run for minutes. */
export type TaskLane = 'QUICK' | 'LONG'
export const TASK_LANES: readonly TaskLane[] = ['QUICK', 'LONG']

const handlers = new Map<string, TaskHandler>()
const quickKinds = new Set<string>()
export function registerTaskHandler(kind: string, handler: TaskHandler, opts: { lane?: TaskLane } = {}) {
  handlers.set(kind, handler)
  if (opts.lane === 'QUICK') quickKinds.add(kind)
  else quickKinds.delete(kind)
}

/**
 * Housekeeping every process's runner does itself every `everyMs` (by the clock; at its first pass
 * too): each job must be safe to run twice and in several processes at once (conditional deletes).
 */
export type PeriodicJob = (ctx: AppContext) => Promise<void>
const periodic = new Map<string, { everyMs: number; run: PeriodicJob }>()
export function registerPeriodicJob(name: string, everyMs: number, run: PeriodicJob) {
  periodic.set(name, { everyMs, run })
}

/**
 * Queues a task. run_after is always written from the clock (default: now): a database default
 * (Postgres now(), microseconds, the database server's time) compared with the runner's clock in
 * milliseconds could keep a task waiting.
 */
export async function enqueueTask(clock: Clock, db: Db, t: { kind: string; agencyId?: number | null; accountId?: number | null; payload?: unknown; total?: number; runAfter?: Date }) {
  const now = isoNow(clock.now())
  return db
    .insertInto('task')
    .values({
      kind: t.kind,
      agency_id: t.agencyId ?? null,
      account_id: t.accountId ?? null,
      payload: toJson(t.payload ?? {}),
      total_count: t.total ?? 0,
      run_after: t.runAfter ? isoNow(t.runAfter) : now,
      created_at: now,
      request_id: currentRequest()?.reqId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

const insertTaskQuery = prepared((db, p: { kind: string; agencyId: number | null; accountId: number | null; payload: string; total: number; runAfter: string; createdAt: string; requestId: string | null }) =>
  db.insertInto('task').values({ kind: p.kind, agency_id: p.agencyId, account_id: p.accountId, payload: p.payload, total_count: p.total, run_after: p.runAfter, created_at: p.createdAt, request_id: p.requestId }),
)

/** enqueueTask for hot paths (an order's expiry): a prepared insert that answers nothing. */
export async function enqueueTaskQuick(clock: Clock, db: Db, t: { kind: string; agencyId?: number | null; accountId?: number | null; payload?: unknown; total?: number; runAfter?: Date }) {
  const now = isoNow(clock.now())
  await insertTaskQuery(db, { kind: t.kind, agencyId: t.agencyId ?? null, accountId: t.accountId ?? null, payload: toJson(t.payload ?? {}) as string, total: t.total ?? 0, runAfter: t.runAfter ? isoNow(t.runAfter) : now, createdAt: now, requestId: currentRequest()?.reqId ?? null })
}

export function taskDto(t: TaskRow) {
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    taskInfo: { currentCount: t.current_count, totalCount: t.total_count, errorCount: t.error_count, state: t.state },
    result: fromJson(t.result, null),
    createdAt: t.created_at,
    finishedAt: t.finished_at,
  }
}

/**
 * Records how far a task got, in the transaction `db` of the step that got it there: after a crash
 * the task is taken again (its lease runs out) and reads `checkpointOf(task)` to continue after the
 * last committed step, so nothing is written twice. Every task kind is safe to run again this way
 * or by being one transaction (erasure) or at most once (mails).
 */
export async function saveCheckpoint(db: Db, taskId: number, value: unknown) {
  await db.updateTable('task').set({ checkpoint: value == null ? null : toJson(value) }).where('id', '=', taskId).execute()
}

export const checkpointOf = <T>(task: { checkpoint: string | null }): T | null => fromJson<T | null>(task.checkpoint, null)


/** Thrown by `progress.update` once the runner stops: the handler ends there as after a crash (its steps are takeover-safe) and the task is handed back. */
export class TaskStopping extends Error {
  constructor() {
    super('the process is stopping')
  }
}

export interface TaskRunner {
  wake(): void
  /** runs what is due in every lane; resolves when the lanes are idle, with the number of tasks run */
  runOnce(): Promise<number>
  stop(): Promise<void>
}

export function startTaskRunner(ctx: AppContext, opts: { intervalMs?: number; autoStart?: boolean } = {}): TaskRunner {
  // the lease: how long a claimed task is this process's; renewed every third of it while the task
  // runs, so only a process that died (or hangs) loses it, and another takes the task over then
  const LEASE_MS = (ctx.config.tasks?.lease_seconds ?? 60) * 1000
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | null = null

  /** Locks the oldest due task of the lane; if another runner took it in between, tries the next one. */
  async function claimOne(lane: TaskLane): Promise<TaskRow | null> {
    const quick = [...quickKinds]
    for (let round = 0; round < 5; round++) {
      const at = ctx.clock.now()
      const now = isoNow(at)
      // due: run_after before the end of this millisecond (a stored time may carry microseconds)
      const dueBefore = isoNow(new Date(at.getTime() + 1))
      let q = ctx.db
        .selectFrom('task')
        .select('id')
        .where('status', 'in', ['WAIT', 'RUNNING'])
        .where('run_after', '<', dueBefore)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      if (lane === 'QUICK') {
        if (!quick.length) return null
        q = q.where('kind', 'in', quick)
      } else if (quick.length) q = q.where('kind', 'not in', quick)
      const candidate = await q.orderBy('id').limit(1).executeTakeFirst()
      if (!candidate) return null
      const claimed = await ctx.db
        .updateTable('task')
        .set((eb) => ({ status: 'RUNNING', locked_until: isoNow(new Date(at.getTime() + LEASE_MS)), started_at: now, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', candidate.id)
        .where('status', 'in', ['WAIT', 'RUNNING'])
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .returningAll()
        .executeTakeFirst()
      if (claimed) return claimed
    }
    return null
  }

  async function runTask(task: TaskRow) {
    const handler = handlers.get(task.kind)
    let last = 0
    const progress: TaskProgress = {
      async update(p, force = false) {
        // stopping (SIGTERM): the task is handed back here, after the step whose progress this is
        if (stopped) throw new TaskStopping()
        const t = Date.now()
        if (!force && t - last < 250) return
        last = t
        await ctx.db
          .updateTable('task')
          .set({
            ...(p.current !== undefined ? { current_count: p.current } : {}),
            ...(p.total !== undefined ? { total_count: p.total } : {}),
            ...(p.errors !== undefined ? { error_count: p.errors } : {}),
            ...(p.state !== undefined ? { state: p.state } : {}),
            locked_until: isoNow(new Date(ctx.clock.now().getTime() + LEASE_MS)),
          })
          .where('id', '=', task.id)
          .execute()
      },
    }
    // the heartbeat renews only this claim (attempts counts claims): a task another process took
    // over after this one hung is left alone
    const heartbeat = setInterval(() => {
      void ctx.db
        .updateTable('task')
        .set({ locked_until: isoNow(new Date(ctx.clock.now().getTime() + LEASE_MS)) })
        .where('id', '=', task.id)
        .where('status', '=', 'RUNNING')
        .where('attempts', '=', task.attempts)
        .execute()
        .catch((e) => ctx.log.warn('task lease renewal failed', { taskId: task.id, error: String((e as Error)?.message ?? e) }))
    }, LEASE_MS / 3)
    try {
      if (!handler) throw new Error(`no handler for task kind ${task.kind}`)
      const out = (await handler(ctx, task, fromJson(task.payload, {}), progress)) ?? {}
      await ctx.db
        .updateTable('task')
        .set({
          status: 'FINISHED',
          finished_at: isoNow(ctx.clock.now()),
          locked_until: null,
          ...(out.state !== undefined ? { state: out.state } : {}),
          ...(out.result !== undefined ? { result: toJson(out.result) } : {}),
        })
        .where('id', '=', task.id)
        .execute()
      ctx.log.info('task done', { taskId: task.id, kind: task.kind, reqId: task.request_id })
    } catch (e) {
      if (e instanceof TaskStopping) {
        // the process stops: the task's lease is given back at once (only this claim's), so another
        // process continues it from its checkpoint now instead of after the lease, as after a crash
        await ctx.db
          .updateTable('task')
          .set({ locked_until: null })
          .where('id', '=', task.id)
          .where('status', '=', 'RUNNING')
          .where('attempts', '=', task.attempts)
          .execute()
          .catch(() => {})
        ctx.log.info('task handed back', { taskId: task.id, kind: task.kind, reqId: task.request_id })
        return
      }
      ctx.log.error('task failed', { taskId: task.id, kind: task.kind, reqId: task.request_id, error: String((e as Error)?.stack ?? e) })
      const message = e instanceof Error && (e as any).errorType ? (e as any).errorType : String((e as Error)?.message ?? e).slice(0, 300)
      await ctx.db.updateTable('task').set({ status: 'ERROR', state: message, finished_at: isoNow(ctx.clock.now()), locked_until: null }).where('id', '=', task.id).execute()
    } finally {
      clearInterval(heartbeat)
    }
  }

  /** One lane: one task at a time, passes never overlap; a wake-up during a pass runs another. */
  function lane(name: TaskLane) {
    async function pass() {
      let n = 0
      while (!stopped) {
        const task = await claimOne(name)
        if (!task) break
        await runTask(task)
        n++
      }
      return n
    }
    return serialPasses(pass, (e: any) => ctx.log.error('task runner pass failed', { lane: name, error: String(e?.stack ?? e) }), () => stopped)
  }
  const lanes = TASK_LANES.map(lane)
  const lastRun = new Map<string, number>()
  let periodicRunning: Promise<void> | null = null
  function runPeriodic(): Promise<void> {
    if (periodicRunning || stopped) return periodicRunning ?? Promise.resolve()
    periodicRunning = periodicPass().finally(() => (periodicRunning = null))
    return periodicRunning
  }
  async function periodicPass() {
    for (const [name, job] of periodic) {
      const now = ctx.clock.now().getTime()
      const last = lastRun.get(name)
      if (last !== undefined && now - last < job.everyMs) continue
      lastRun.set(name, now)
      await job.run(ctx).catch((e) => ctx.log.error('periodic job failed', { job: name, error: String(e?.stack ?? e) }))
    }
  }
  const runOnce = async () => {
    await runPeriodic()
    return (await Promise.all(lanes.map((l) => l.runOnce()))).reduce((a, b) => a + b, 0)
  }

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(async () => {
      await runOnce()
      schedule()
    }, opts.intervalMs ?? 2000)
  }
  if (opts.autoStart !== false) schedule()
  return {
    wake: () => void runOnce(),
    runOnce,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await Promise.all([...lanes.map((l) => l.idle()), periodicRunning])
    },
  }
}
