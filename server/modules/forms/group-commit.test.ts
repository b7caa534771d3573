// Group commit: writes that arrive together share one transaction, each in its own savepoint.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { groupCommit } from './group-commit'

forEachDialect('group commit', (h) => {
  test('a failing write is rolled back alone; the others are stored; results arrive after commit', async () => {
    const { ctx } = h()
    const agency = await ctx.db.insertInto('agency').values({ display_name: 'Gruppe' }).returning('id').executeTakeFirstOrThrow()
    const insert = (name: string) =>
      groupCommit(ctx, async (trx) => {
        await trx.updateTable('agency').set({ internal_name: name }).where('id', '=', agency.id).execute()
        if (name === 'kaputt') throw new Error('refused')
        return name
      })
    const results = await Promise.allSettled(['eins', 'zwei', 'kaputt', 'drei'].map(insert))
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('refused')
    // the refused write left nothing behind (on SQLite they run in order, so the last one wins)
    const a = await ctx.db.selectFrom('agency').select('internal_name').where('id', '=', agency.id).executeTakeFirstOrThrow()
    if (h().dialect === 'sqlite') expect(a.internal_name).toBe('drei')
    expect(a.internal_name).not.toBe('kaputt')
  })

  test('writes inside the group see each other (one writer, in order)', async () => {
    const { ctx } = h()
    const agency = await ctx.db.insertInto('agency').values({ display_name: 'Zähler', internal_name: '0' }).returning('id').executeTakeFirstOrThrow()
    const bump = () =>
      groupCommit(ctx, async (trx) => {
        const r = await trx.selectFrom('agency').select('internal_name').where('id', '=', agency.id).executeTakeFirstOrThrow()
        await trx.updateTable('agency').set({ internal_name: String(Number(r.internal_name) + 1) }).where('id', '=', agency.id).execute()
      })
    await Promise.all(Array.from({ length: 50 }, bump))
    const a = await ctx.db.selectFrom('agency').select('internal_name').where('id', '=', agency.id).executeTakeFirstOrThrow()
    // on Postgres each write is its own transaction: concurrent read-then-write may lose updates,
    // which is why capacity never uses this pattern; on SQLite the group runs them one by one
    if (h().dialect === 'sqlite') expect(a.internal_name).toBe('50')
  })
})
