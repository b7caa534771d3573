// The bun:sqlite driver: concurrent transactions commit together but each alone decides its fate;
// a commit is acknowledged only once durable; checkpoints run outside the commit path.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kysely, sql } from 'kysely'
import { BunSqliteDialect } from './bun-sqlite-dialect'
import { openSqlite } from './database'
import { prepared } from './prepared'

describe('bun:sqlite driver', () => {
  let dir: string
  let dialect: BunSqliteDialect
  let db: Kysely<any>
  let other: Database
  const file = () => join(dir, 'd.sqlite')
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'einlass-driver-'))
    dialect = new BunSqliteDialect(openSqlite(file()))
    db = new Kysely<any>({ dialect })
    await sql`create table item (id integer primary key, name text not null unique, n integer not null default 0)`.execute(db)
    await sql`create table counter (id integer primary key, taken integer not null, cap integer not null)`.execute(db)
    await sql`insert into counter (id, taken, cap) values (1, 0, 30)`.execute(db)
    // a second connection sees only what is committed
    other = new Database(file(), { readonly: true })
  })
  afterAll(async () => {
    other?.close()
    await db?.destroy()
    rmSync(dir, { recursive: true, force: true })
  })
  const committed = (name: string) => other.query('select count(*) as n from item where name = ?').get(name) as { n: number }

  test('the automatic WAL checkpoint is off', async () => {
    expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0].wal_autocheckpoint).toBe(0)
  })

  test('many concurrent transactions: each commits, and is visible to other connections when its call returns', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `c${i}`)
    await Promise.all(
      names.map(async (name) => {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('item').values({ name }).execute()
          await Bun.sleep(0)
          await trx.updateTable('item').set({ n: 1 }).where('name', '=', name).execute()
        })
        // acknowledged means committed: another connection sees it now
        expect(committed(name).n).toBe(1)
      }),
    )
    expect((other.query("select count(*) as n, sum(n) as s from item where name like 'c%'").get() as any)).toEqual({ n: 200, s: 200 })
  })

  test('a failing transaction in a group rolls back only its own work', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('item').values({ name: `g${i}` }).execute()
          await Bun.sleep(0)
          if (i % 3 === 0) throw new Error(`refused ${i}`)
          // a constraint violation inside a member fails that member only
          if (i % 3 === 1) await trx.insertInto('item').values({ name: 'c0' }).execute()
        }),
      ),
    )
    const ok = results.map((r, i) => (r.status === 'fulfilled' ? i : -1)).filter((i) => i >= 0)
    expect(ok).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 === 2))
    const stored = (other.query("select name from item where name like 'g%' order by id").all() as { name: string }[]).map((r) => r.name)
    expect(stored).toEqual(ok.map((i) => `g${i}`))
  })

  test('capacity by conditional update holds inside groups', async () => {
    // prepared() is typed for the app's schema; this test's own table goes through `any`
    const take = prepared((d: Kysely<any>, p: { n: number }) => d.updateTable('counter').set((eb) => ({ taken: eb('taken', '+', p.n) })).where('id', '=', 1).where(sql<boolean>`taken + ${p.n} <= cap`))
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        db.transaction().execute(async (trx) => {
          const r = await take(trx as any, { n: 1 })
          return Number(r.numAffectedRows) === 1
        }),
      ),
    )
    expect(results.filter(Boolean).length).toBe(30)
    expect((other.query('select taken from counter where id = 1').get() as any).taken).toBe(30)
  })

  test('a write outside a transaction is committed when it returns, even while a group is open', async () => {
    const tx = Array.from({ length: 10 }, (_, i) => db.transaction().execute(async (trx) => void (await trx.insertInto('item').values({ name: `w${i}` }).execute())))
    const plain = db.insertInto('item').values({ name: 'plain' }).execute()
    await plain
    expect(committed('plain').n).toBe(1)
    await Promise.all(tx)
  })

  test('checkpoint() moves the WAL into the database file between transactions', async () => {
    const before = statSync(file()).size
    await Promise.all(Array.from({ length: 300 }, (_, i) => db.insertInto('item').values({ name: `k${i}-${'x'.repeat(200)}` }).execute()))
    const busy = Promise.all(Array.from({ length: 20 }, (_, i) => db.transaction().execute(async (trx) => void (await trx.insertInto('item').values({ name: `t${i}` }).execute()))))
    await dialect.driver.checkpoint()
    await busy
    expect(statSync(file()).size).toBeGreaterThan(before)
  })
})
