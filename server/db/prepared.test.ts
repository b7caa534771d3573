// prepared()/preparedRows(): compiled once, run with new values, the same on both dialects, inside
// and outside a transaction.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../testing/harness'
import { prepared, preparedRows } from './prepared'

const insertBuckets = preparedRows((db, rows: Array<{ bucket: string; hits: number; at: string }>) =>
  db.insertInto('rate_limit').values(rows.map((r) => ({ bucket: r.bucket, window_start: r.at, hits: r.hits }))),
)
const bucketsLike = prepared((db, p: { prefix: string }) => db.selectFrom('rate_limit').select(['bucket', 'hits', 'window_start']).where('bucket', 'like', p.prefix).orderBy('bucket'))

forEachDialect('prepared statements', (h) => {
  test('preparedRows inserts any number of rows, each with its own values', async () => {
    const p = `prep-${Date.now()}-`
    await insertBuckets(h().ctx.db, [
      { bucket: `${p}a`, hits: 1, at: '2026-01-01T00:00:00.000Z' },
      { bucket: `${p}b`, hits: 2, at: '2026-01-02T00:00:00.000Z' },
      { bucket: `${p}c`, hits: 3, at: '2026-01-03T00:00:00.000Z' },
    ])
    await h().ctx.db.transaction().execute(async (trx) => {
      await insertBuckets(trx, [{ bucket: `${p}d`, hits: 4, at: '2026-01-04T00:00:00.000Z' }])
      // the same shape again reuses the compiled statement with new values
      await insertBuckets(trx, [
        { bucket: `${p}e`, hits: 5, at: '2026-01-05T00:00:00.000Z' },
        { bucket: `${p}f`, hits: 6, at: '2026-01-06T00:00:00.000Z' },
        { bucket: `${p}g`, hits: 7, at: '2026-01-07T00:00:00.000Z' },
      ])
    })
    const rows = (await bucketsLike(h().ctx.db, { prefix: `${p}%` })).rows
    expect(rows.map((r) => [r.bucket.slice(p.length), r.hits, r.window_start.slice(0, 10)])).toEqual([
      ['a', 1, '2026-01-01'],
      ['b', 2, '2026-01-02'],
      ['c', 3, '2026-01-03'],
      ['d', 4, '2026-01-04'],
      ['e', 5, '2026-01-05'],
      ['f', 6, '2026-01-06'],
      ['g', 7, '2026-01-07'],
    ])
  })

  test('a failing statement inside a transaction rolls it back', async () => {
    const p = `prep-fail-${Date.now()}-`
    const r = h().ctx.db.transaction().execute(async (trx) => {
      await insertBuckets(trx, [{ bucket: `${p}x`, hits: 1, at: '2026-01-01T00:00:00.000Z' }])
      await insertBuckets(trx, [{ bucket: `${p}x`, hits: 2, at: '2026-01-01T00:00:00.000Z' }])
    })
    await expect(r).rejects.toThrow()
    expect((await bucketsLike(h().ctx.db, { prefix: `${p}%` })).rows).toEqual([])
  })
})
