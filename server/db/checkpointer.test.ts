// WAL checkpoints on the worker thread: they move committed pages into the database file while the
// main connection keeps writing, and nothing committed is lost or corrupted.
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { startCheckpointer } from './checkpointer'
import { WORKER_WAL_BYTES, openDatabase, openSqlite } from './database'

const dir = mkdtempSync(join(tmpdir(), 'einlass-ckpt-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the worker checkpoints the WAL into the database file while the main connection writes', async () => {
  const file = join(dir, 'a.sqlite')
  const raw = openSqlite(file)
  raw.exec('create table item (id integer primary key, body text not null)')
  const errors: string[] = []
  const ck = await startCheckpointer(file, (m) => errors.push(m))
  try {
    const before = statSync(file).size
    const insert = raw.prepare('insert into item (body) values (?)')
    raw.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(300)}`)
    })()
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(500_000)
    const r = await ck.now()
    expect(r).not.toBeNull()
    expect(r!.log).toBeGreaterThan(100)
    expect(r!.checkpointed).toBe(r!.log)
    expect(statSync(file).size).toBeGreaterThan(before + 500_000)
    // checkpoints while the main connection keeps committing
    const done: Promise<unknown>[] = []
    for (let round = 0; round < 20; round++) {
      raw.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(`round ${round} ${i}`)
      })()
      done.push(ck.now())
    }
    await Promise.all(done)
    expect(errors).toEqual([])
  } finally {
    await ck.close()
    raw.close()
  }
  const check = new Database(file, { readonly: true })
  expect(check.query('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' })
  expect(check.query('select count(*) as n from item').get()).toEqual({ n: 4000 })
  check.close()
})

test('openDatabase runs its checkpoints on the worker and closes it', async () => {
  const file = join(dir, 'b.sqlite')
  const h = await openDatabase({ dialect: 'sqlite', path: file } as any)
  await sql`create table item (id integer primary key, body text not null)`.execute(h.db)
  await Promise.all(Array.from({ length: 300 }, (_, i) => h.db.insertInto('item' as any).values({ body: `r${i} ${'y'.repeat(500)}` }).execute()))
  const before = statSync(file).size
  await h.checkpoint!()
  // a small WAL is checkpointed in the driver's queue; a big one (or when asked) on the worker
  expect(await h.checkpointsOn!()).toBe('queue')
  await h.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 3000; i++) await trx.insertInto('item' as any).values({ body: `s${i} ${'y'.repeat(2000)}` }).execute()
  })
  expect(statSync(`${file}-wal`).size).toBeGreaterThan(WORKER_WAL_BYTES)
  await h.checkpoint!()
  expect(await h.checkpointsOn!()).toBe('worker')
  expect(statSync(file).size).toBeGreaterThan(before)
  await h.close()
  const check = new Database(file, { readonly: true })
  expect(check.query('select count(*) as n from item').get()).toEqual({ n: 3300 })
  check.close()
})

test('under steady writes the WAL starts over instead of growing without bound', async () => {
  const file = join(dir, 'c.sqlite')
  // small thresholds: the worker from the start, a restart once 200 frames are in the WAL
  const h = await openDatabase({ dialect: 'sqlite', path: file } as any, { workerWalBytes: -1, walRestartFrames: 200 })
  await sql`create table item (id integer primary key, body text not null)`.execute(h.db)
  // the worker thread started and answering before the writers begin: on a busy machine its start
  // took long enough for the WAL to grow past half the total first (the file keeps its peak size)
  await h.checkpoint!()
  expect(await h.checkpointsOn!()).toBe('worker')
  let stop = false
  let written = 0
  // four writers keep a write transaction open nearly all the time, as a loaded server does
  const writers = Array.from({ length: 4 }, async (_, w) => {
    while (!stop) {
      await h.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 10; i++) await trx.insertInto('item' as any).values({ body: `w${w}-${written}-${'z'.repeat(1500)}` }).execute()
      })
      written++
    }
  })
  // the WAL header's salt-1 changes each time the WAL starts over (sqlite.org/fileformat2.html#walformat)
  const salt = () => {
    const fd = openSync(`${file}-wal`, 'r')
    try {
      const b = Buffer.alloc(4)
      readSync(fd, b, 0, 4, 16)
      return b.readUInt32BE(0)
    } finally {
      closeSync(fd)
    }
  }
  const salts = new Set([salt()])
  let rounds = 0
  while (written * 10 * 1600 < 16_000_000) {
    await h.checkpoint!()
    salts.add(salt())
    rounds++
  }
  stop = true
  await Promise.all(writers)
  expect(await h.checkpointsOn!()).toBe('worker')
  const wal = statSync(`${file}-wal`).size
  const total = written * 10 * 1600
  expect(rounds).toBeGreaterThan(5)
  // it started over again and again (12–17 times here; without the restart twice, at the start)
  expect(salts.size).toBeGreaterThan(3)
  // The file's size is only printed: it keeps its peak, which depends on how long checkpoints waited
  // their turn (13–60 % of `total` on a quiet machine, 123 % with eight test runs on two cores, 145 %
  // without any restart), so it cannot tell a restart from a busy machine; the salts above can.
  console.log(`WAL file ${Math.round(wal / 1e6)} MB after ${Math.round(total / 1e6)} MB written, ${salts.size - 1} restarts`)
  await h.close()
})

test('a worker that is gone answers null at once, so the caller checkpoints itself instead of waiting forever', async () => {
  const file = join(dir, 'd.sqlite')
  const raw = openSqlite(file)
  raw.exec('create table item (id integer primary key)')
  const ck = await startCheckpointer(file, () => {})
  expect(ck.broken).toBe(false)
  expect(await ck.now()).not.toBeNull()
  await ck.close()
  for (let i = 0; i < 50 && !ck.broken; i++) await Bun.sleep(10)
  expect(ck.broken).toBe(true)
  expect(await ck.now()).toBeNull()
  raw.close()
})

test('restart(): the worker copies the whole WAL and starts it over itself; the next commit appends to it', async () => {
  const file = join(dir, 'e.sqlite')
  const raw = openSqlite(file)
  raw.exec('create table item (id integer primary key, body text not null)')
  const insert = raw.prepare('insert into item (body) values (?)')
  raw.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run(`r${i} ${'q'.repeat(400)}`)
  })()
  const ck = await startCheckpointer(file, () => {})
  try {
    const r = await ck.restart()
    expect(r!.log).toBeGreaterThan(50)
    expect(r!.checkpointed).toBe(r!.log)
    // the worker's one-frame write has started the WAL over before the main connection writes again
    expect((await ck.now())!.log).toBe(1)
    insert.run('after')
    expect(raw.query('select count(*) as n from item').get()).toEqual({ n: 501 })
  } finally {
    await ck.close()
    raw.close()
  }
})
