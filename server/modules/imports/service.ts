// CSV import (a background task, kind guest-import): every row is validated first; the valid rows are
// written in ONE transaction (batches of 500 statements), so an import is whole or absent.
import { z } from 'zod'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow, toJson } from '../../db/types'
import { AppError, fieldError } from '../../shared/errors'
import { email as emailSchema } from '../../shared/validation'
import type { AccountActor } from '../identity/auth'
import { randomString } from '../identity/tokens'
import { checkpointOf, registerTaskHandler, enqueueTask, saveCheckpoint, type TaskProgress } from '../tasks/runner'
import type { TaskRow } from '../tasks/tasks.table'
import { eventOfAgency } from '../events/service'
import { findOrCreateLabel } from '../tags/service'
import { releaseSeats, takeSeats } from '../visitors/capacity'
import { decodeFile, detectDelimiter, records, suggestMapping } from './csv'
import { ESCORT_SLOTS, type ImportRunInput, MAX_IMPORT_BYTES, type Mapping } from './model'

export const IMPORT_TASK = 'guest-import'
const BATCH = 500

export async function uploadImport(ctx: AppContext, actor: AccountActor, eventId: number, file: File) {
  const event = await eventOfAgency(ctx, actor, eventId)
  if (event.status === 'DELETED') throw new AppError(404, 'NOT_FOUND')
  if (file.size > MAX_IMPORT_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE')
  if (file.size === 0) throw fieldError([{ field: 'file', errorType: 'IMPORT_EMPTY' }])
  const text = decodeFile(new Uint8Array(await file.arrayBuffer()))
  // binary files (NUL bytes: also unstorable in a Postgres text column) and files the CSV parser
  // refuses (an unclosed quote …) are a field error, never a 500 and never stored
  const unreadable = () => fieldError([{ field: 'file', errorType: 'IMPORT_UNREADABLE' }])
  if (text.includes('\u0000')) throw unreadable()
  const delimiter = detectDelimiter(text)
  let headers: string[] = []
  const sample: string[][] = []
  let rows = 0
  try {
    for await (const r of records(text, delimiter)) {
      if (!headers.length) headers = r.values
      else {
        rows++
        if (sample.length < 5) sample.push(r.values)
      }
    }
  } catch {
    throw unreadable()
  }
  if (!headers.length || rows === 0) throw fieldError([{ field: 'file', errorType: 'IMPORT_EMPTY' }])
  const row = await ctx.db
    .insertInto('import_file')
    .values({ agency_id: event.agency_id, event_id: event.id, account_id: actor.account.id, file_name: file.name || 'import.csv', content: text, delimiter, row_count: rows, created_at: isoNow(ctx.clock.now()) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, fileName: file.name, delimiter, headers, sample, rowCount: rows, suggestedMapping: suggestMapping(headers) }
}

export async function startImport(ctx: AppContext, actor: AccountActor, eventId: number, importId: number, input: ImportRunInput, dryRun: boolean) {
  const event = await eventOfAgency(ctx, actor, eventId)
  const file = await ctx.db.selectFrom('import_file').select(['id', 'event_id', 'row_count']).where('id', '=', importId).executeTakeFirst()
  if (!file || file.event_id !== event.id) throw new AppError(404, 'NOT_FOUND')
  // run_after from our clock: the column default (Postgres now(), microseconds) could lie just after a claim in the same millisecond
  const task = await enqueueTask(ctx.clock, ctx.db, { kind: IMPORT_TASK, agencyId: event.agency_id, accountId: actor.account.id, total: file.row_count, payload: { importId, eventId, dryRun, ...input } })
  ctx.notifyTasks()
  return task
}

export interface RowError {
  line: number
  field: string
  errorType: string
}

const YES = new Set(['1', 'x', 'ja', 'yes', 'true', 'wahr', 'j', 'y'])
const STATUS_WORDS: Record<string, 'ADDED' | 'CONFIRMED'> = { added: 'ADDED', hinzugefügt: 'ADDED', confirmed: 'CONFIRMED', angemeldet: 'CONFIRMED', bestätigt: 'CONFIRMED' }
const text = (max: number) => z.string().max(max, 'TOO_LONG')

interface GoodRow {
  line: number
  salutation: string | null
  title: string | null
  firstName: string
  lastName: string
  email: string | null
  company: string | null
  position: string | null
  phoneNumber: string | null
  vip: boolean
  status: 'ADDED' | 'CONFIRMED'
  tags: string[]
  note: string | null
  escorts: Array<{ firstName: string; lastName: string }>
}

/** Turns one CSV record into a guest, or the list of what is wrong with it. */
export function readRow(values: string[], line: number, mapping: Mapping, defaultStatus: 'ADDED' | 'CONFIRMED'): { row?: GoodRow; errors: RowError[] } {
  const errors: RowError[] = []
  const get = (f: keyof Mapping) => {
    const i = mapping[f]
    if (i === undefined) return ''
    return (values[i] ?? '').trim()
  }
  const opt = (f: keyof Mapping, max: number) => {
    const v = get(f)
    if (!v) return null
    if (!text(max).safeParse(v).success) errors.push({ line, field: f, errorType: 'TOO_LONG' })
    return v
  }
  const req = (f: keyof Mapping, max: number) => {
    const v = get(f)
    if (!v) errors.push({ line, field: f, errorType: 'REQUIRED' })
    else if (v.length > max) errors.push({ line, field: f, errorType: 'TOO_LONG' })
    return v
  }
  const firstName = req('firstName', 100)
  const lastName = req('lastName', 100)
  let email: string | null = null
  const rawEmail = get('email')
  if (rawEmail) {
    const r = emailSchema().safeParse(rawEmail)
    if (r.success) email = r.data
    else errors.push({ line, field: 'email', errorType: 'INVALID_EMAIL' })
  }
  const rawStatus = get('status').toLowerCase()
  let status = defaultStatus
  if (rawStatus) {
    const s = STATUS_WORDS[rawStatus]
    if (s) status = s
    else errors.push({ line, field: 'status', errorType: 'INVALID' })
  }
  const escorts: GoodRow['escorts'] = []
  for (let i = 1; i <= ESCORT_SLOTS; i++) {
    const fn = get(`escort${i}FirstName` as keyof Mapping)
    const ln = get(`escort${i}LastName` as keyof Mapping)
    if (!fn && !ln) continue
    if (!fn) errors.push({ line, field: `escort${i}FirstName`, errorType: 'REQUIRED' })
    if (!ln) errors.push({ line, field: `escort${i}LastName`, errorType: 'REQUIRED' })
    escorts.push({ firstName: fn.slice(0, 100), lastName: ln.slice(0, 100) })
  }
  const row: GoodRow = {
    line,
    salutation: opt('salutation', 20),
    title: opt('title', 50),
    firstName,
    lastName,
    email,
    company: opt('company', 200),
    position: opt('position', 200),
    phoneNumber: opt('phoneNumber', 40),
    vip: YES.has(get('vip').toLowerCase()),
    status,
    tags: get('tags')
      .split(/[|,]/)
      .map((t) => t.trim())
      .filter(Boolean)
      .slice(0, 20),
    note: opt('note', 2000),
    escorts,
  }
  return errors.length ? { errors } : { row, errors }
}

interface ImportPayload extends ImportRunInput {
  importId: number
  eventId: number
  dryRun: boolean
}

/**
 * Two streaming passes over the stored file keep memory bounded (no row objects are kept): the first
 * validates every row and collects the report; the second writes the valid rows in batches of 500,
 * each batch its own short transaction so registrations and check-ins keep flowing meanwhile (on SQLite
 * a long transaction would hold the only connection). Every row carries the task's import id; if any
 * batch fails (e.g. EVENT_FULL) one compensating transaction removes every row of the import and gives
 * its places back, so an import ends whole or not at all.
 *
 * Safe to run again: each batch's transaction also writes the task's checkpoint (the file line of its
 * last row and the rows written so far). A process killed in the middle leaves whole batches and a
 * checkpoint that names them; when the task is taken again after its lease, both passes classify the
 * file as before (the import's own rows do not count as "already registered") and the writing pass
 * skips every line up to the checkpoint, so each row ends up imported exactly once.
 */
interface ImportCheckpoint {
  /** last file line whose row is committed */
  line: number
  written: number
  /** the import finished (file removed in the same transaction): the outcome to answer again */
  done?: { state: string; result: unknown }
}

async function runImport(ctx: AppContext, task: TaskRow, p: ImportPayload, progress: TaskProgress) {
  const taskId = task.id
  const checkpoint = checkpointOf<ImportCheckpoint>(task)
  if (checkpoint?.done) return checkpoint.done
  const file = await ctx.db.selectFrom('import_file').selectAll().where('id', '=', p.importId).executeTakeFirstOrThrow()
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', p.eventId).executeTakeFirstOrThrow()
  const existing = new Set(
    (
      await ctx.db
        .selectFrom('event_visitor')
        .select('email')
        .where('event_id', '=', event.id)
        .where('email', 'is not', null)
        .where((eb) => eb.or([eb('import_task_id', 'is', null), eb('import_task_id', '!=', taskId)]))
        .execute()
    ).map((r) => r.email!),
  )
  // pass 1: validate
  const seen = new Set<string>()
  const errors: RowError[] = []
  let errorCount = 0
  let valid = 0
  let duplicates = 0
  let n = 0
  const classify = (values: string[], line: number): GoodRow | null => {
    const { row, errors: rowErrors } = readRow(values, line, p.mapping, p.defaultStatus)
    if (row?.email && (existing.has(row.email) || seen.has(row.email))) {
      duplicates++
      if (errors.length < 1000) errors.push({ line, field: 'email', errorType: existing.has(row.email) ? 'ALREADY_REGISTERED' : 'DUPLICATE_IN_FILE' })
      return null
    }
    if (!row) {
      for (const e of rowErrors) if (errors.length < 1000) errors.push(e)
      return null
    }
    if (row.email) seen.add(row.email)
    return row
  }
  await progress.update({ current: 0, total: file.row_count, errors: 0 }, true)
  let first = true
  for await (const r of records(file.content, file.delimiter)) {
    if (first) {
      first = false
      continue
    }
    n++
    if (classify(r.values, r.line)) valid++
    else errorCount++
    if (n % 2000 === 0) await progress.update({ current: n, errors: errorCount })
  }
  const report = { dryRun: p.dryRun, rows: n, valid, invalid: errorCount, duplicates, imported: 0, errors }
  if (p.dryRun) {
    await progress.update({ current: n, total: n, errors: errorCount }, true)
    return { state: `DRY_RUN:${valid}:${errorCount}`, result: report }
  }
  if (errorCount && !p.skipInvalid) {
    await ctx.db.updateTable('task').set({ result: toJson(report), current_count: n, error_count: errorCount }).where('id', '=', taskId).execute()
    throw new AppError(400, 'IMPORT_HAS_INVALID_ROWS')
  }
  // pass 2: write the valid rows (the same classification, so exactly the rows counted as valid)
  seen.clear()
  duplicates = 0
  errors.length = 0
  await progress.update({ current: 0, total: valid, errors: errorCount }, true)
  const tagIds = new Map<string, number>()
  const now = isoNow(ctx.clock.now())
  const skipThrough = checkpoint?.line ?? 0
  let written = checkpoint?.written ?? 0
  let batch: GoodRow[] = []
  const flush = async () => {
    if (!batch.length) return
    const rows = batch
    batch = []
    const lastLine = rows[rows.length - 1].line
    await ctx.db.transaction().execute(async (trx) => {
      const persons = rows.filter((g) => g.status === 'CONFIRMED').reduce((a, g) => a + 1 + g.escorts.length, 0)
      if (persons && !(await takeSeats(trx, event.id, persons))) throw new AppError(409, 'EVENT_FULL')
      const tokens = rows.map(() => randomString(20))
      const inserted = await trx
        .insertInto('event_visitor')
        .values(
          rows.map((g, j) => ({
            event_id: event.id,
            status: g.status,
            salutation: g.salutation,
            title: g.title,
            first_name: g.firstName,
            last_name: g.lastName,
            email: g.email,
            company: g.company,
            position: g.position,
            phone_number: g.phoneNumber,
            vip: g.vip,
            note: g.note,
            visitor_count: 1 + g.escorts.length,
            seats_held: g.status === 'CONFIRMED' ? 1 + g.escorts.length : 0,
            event_token: tokens[j],
            download_token: randomString(20),
            source: 'IMPORT',
            import_task_id: taskId,
            registered_at: g.status === 'CONFIRMED' ? now : null,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'event_token'])
        .execute()
      const idOf = new Map(inserted.map((r) => [r.event_token, r.id]))
      const escorts = rows.flatMap((g, j) => g.escorts.map((e, k) => ({ visitor_id: idOf.get(tokens[j])!, number: k + 1, first_name: e.firstName, last_name: e.lastName })))
      if (escorts.length) await trx.insertInto('escort_person').values(escorts).execute()
      const links = new Map<string, { visitor_id: number; tag_id: number }>()
      for (let j = 0; j < rows.length; j++) {
        for (const name of rows[j].tags) {
          const key = name.toLowerCase()
          let id = tagIds.get(key)
          if (id === undefined) {
            id = (await findOrCreateLabel(trx, 'tag', event.agency_id, name)).row.id
            tagIds.set(key, id)
          }
          const visitorId = idOf.get(tokens[j])!
          links.set(`${visitorId}:${id}`, { visitor_id: visitorId, tag_id: id })
        }
      }
      if (links.size) await trx.insertInto('visitor_tag').values([...links.values()]).execute()
      await saveCheckpoint(trx, taskId, { line: lastLine, written: written + rows.length } satisfies ImportCheckpoint)
    })
    written += rows.length
    await progress.update({ current: written })
  }
  try {
    first = true
    for await (const r of records(file.content, file.delimiter)) {
      if (first) {
        first = false
        continue
      }
      const row = classify(r.values, r.line)
      // rows up to the checkpoint were committed by an earlier run of this task
      if (row && r.line > skipThrough) batch.push(row)
      if (batch.length >= BATCH) await flush()
    }
    await flush()
  } catch (e) {
    await undoImport(ctx, event.id, taskId)
    await ctx.db.updateTable('task').set({ result: toJson(report) }).where('id', '=', taskId).execute()
    throw e
  }
  await progress.update({ current: written, total: valid, errors: errorCount }, true)
  const done = { state: `IMPORTED:${written}:${errorCount}`, result: { ...report, imported: written } }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('import_file').where('id', '=', file.id).execute()
    await saveCheckpoint(trx, taskId, { line: Number.MAX_SAFE_INTEGER, written, done } satisfies ImportCheckpoint)
  })
  return done
}

/** Removes every row an import wrote and gives their places back, in one transaction. */
async function undoImport(ctx: AppContext, eventId: number, taskId: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const held = await trx.selectFrom('event_visitor').select((eb) => eb.fn.sum<number>('seats_held').as('n')).where('event_id', '=', eventId).where('import_task_id', '=', taskId).executeTakeFirst()
    await trx.deleteFrom('event_visitor').where('event_id', '=', eventId).where('import_task_id', '=', taskId).execute()
    await releaseSeats(trx, eventId, Number(held?.n ?? 0))
    await saveCheckpoint(trx, taskId, null)
  })
}

registerTaskHandler(IMPORT_TASK, (ctx, task, payload, progress) => runImport(ctx, task, payload as ImportPayload, progress))

export async function deleteImportFile(db: Db, id: number) {
  await db.deleteFrom('import_file').where('id', '=', id).execute()
}
