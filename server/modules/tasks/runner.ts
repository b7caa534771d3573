// Background tasks (imports, mass mailings, deletions): a row in `task`, picked up by the runner of
// any server process through a conditional claim, with progress the UI polls every 5 s.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import type { TaskRow } from './tasks.table'

export interface TaskProgress {
  /** sets currentCount/totalCount/errorCount/state; cheap to call often (writes at most every 250 ms) */
  update(p: { current?: number; total?: number; errors?: number; state?: string | null }, force?: boolean): Promise<void>
}

export type TaskHandler = (ctx: AppContext, task: TaskRow, payload: any, progress: TaskProgress) => Promise<{ state?: string | null; result?: unknown } | void>

const handlers = new Map<string, TaskHandler>()
export function registerTaskHandler(kind: string, handler: TaskHandler) {
  handlers.set(kind, handler)
}

export async function enqueueTask(db: Db, t: { kind: string; agencyId?: number | null; accountId?: number | null; payload?: unknown; total?: number; runAfter?: Date }) {
  return db
    .insertInto('task')
    .values({
      kind: t.kind,
      agency_id: t.agencyId ?? null,
      account_id: t.accountId ?? null,
      payload: toJson(t.payload ?? {}),
      total_count: t.total ?? 0,
      ...(t.runAfter ? { run_after: isoNow(t.runAfter) } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
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

const LEASE_MS = 5 * 60_000

export interface TaskRunner {
  wake(): void
  runOnce(): Promise<number>
  stop(): Promise<void>
}

export function startTaskRunner(ctx: AppContext, opts: { intervalMs?: number; autoStart?: boolean } = {}): TaskRunner {
  let stopped = false
  let running: Promise<number> | null = null
  let again = false
  let timer: ReturnType<typeof setTimeout> | null = null

  /** Locks the oldest due task; if another runner took it in between, tries the next one. */
  async function claimOne(): Promise<TaskRow | null> {
    for (let round = 0; round < 5; round++) {
      const now = isoNow(ctx.clock.now())
      const candidate = await ctx.db
        .selectFrom('task')
        .select('id')
        .where('status', 'in', ['WAIT', 'RUNNING'])
        .where('run_after', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      if (!candidate) return null
      const claimed = await ctx.db
        .updateTable('task')
        .set((eb) => ({ status: 'RUNNING', locked_until: isoNow(new Date(ctx.clock.now().getTime() + LEASE_MS)), started_at: now, attempts: eb('attempts', '+', 1) }))
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
    } catch (e) {
      ctx.log.error('task failed', { taskId: task.id, kind: task.kind, error: String((e as Error)?.stack ?? e) })
      const message = e instanceof Error && (e as any).errorType ? (e as any).errorType : String((e as Error)?.message ?? e).slice(0, 300)
      await ctx.db.updateTable('task').set({ status: 'ERROR', state: message, finished_at: isoNow(ctx.clock.now()), locked_until: null }).where('id', '=', task.id).execute()
    }
  }

  async function pass() {
    let n = 0
    while (!stopped) {
      const task = await claimOne()
      if (!task) break
      await runTask(task)
      n++
    }
    return n
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true
      return running
    }
    running = pass()
      .catch((e) => {
        ctx.log.error('task runner pass failed', { error: String(e?.stack ?? e) })
        return 0
      })
      .finally(() => {
        running = null
        if (again && !stopped) {
          again = false
          void runOnce()
        }
      })
    return running
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
      await running
    },
  }
}
