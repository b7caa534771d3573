// Per-process caches of what hot paths read on every request but organisers change rarely (the
// recipients of notifications, an event's payment methods, seat-bound categories, agreements). Each
// cache belongs to a counter in `cache_generation` that database triggers raise on every change of
// the tables behind it (migrations 2026-11-22-701, 2026-11-26-700): one primary-key read tells
// whether the cached answers still hold, also when another process on the same Postgres changed
// them. Per database (the Kysely adapter) so test suites on their own databases never share entries.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db } from './database'
import { prepared } from './prepared'

export interface GenerationCache<V> {
  /** the cached answer for `key`, or `load()`'s (then cached) while the counter stands still */
  get(db: Db, key: string, load: () => Promise<V>): Promise<V>
}

const generationQuery = prepared((db, p: { name: string }) => db.selectFrom('cache_generation').select('n').where('name', '=', p.name))

const once = new AsyncLocalStorage<{ until: number; read: Map<string, number> }>()
/** the longest a value read once is kept: work started inside `fn` that outlives it (a timer) reads again */
const ONCE_MS = 1000

/**
 * Runs `fn` with each counter read from the database at its first use only, and that value kept for
 * the rest of `fn` (a ticket order consulted the 'setup' counter three times: agreements, payment
 * methods, seat-bound categories; issue 25). Only for work that never changes the tables behind the
 * counters (a public registration or ticket order): a change made inside `fn` would not be seen by
 * the cache until `fn` ends. A change by others meanwhile is seen by the next request, as before.
 */
export const readGenerationsOnce = <T>(fn: () => Promise<T>): Promise<T> => once.run({ until: performance.now() + ONCE_MS, read: new Map() }, fn)

/**
 * `inTransaction: 'bypass'` loads without the cache inside a transaction: a transaction that changed
 * the tables (raising the counter) and then rolls back would otherwise leave an answer cached under
 * a counter value that a later, different change reaches again.
 */
export function generationCache<V>(name: string, opts: { max?: number; inTransaction?: 'cache' | 'bypass' } = {}): GenerationCache<V> {
  const max = opts.max ?? 2000
  const caches = new WeakMap<object, { generation: number; entries: Map<string, V> }>()
  return {
    async get(db, key, load) {
      if (db.isTransaction && opts.inTransaction === 'bypass') return load()
      const store = once.getStore()
      const memo = store && performance.now() < store.until ? store.read : undefined
      let generation = memo?.get(name)
      if (generation === undefined) {
        generation = (await generationQuery.first(db, { name }))?.n ?? -1
        memo?.set(name, generation)
      }
      const adapter = db.getExecutor().adapter
      let cache = caches.get(adapter)
      if (!cache || cache.generation !== generation) caches.set(adapter, (cache = { generation, entries: new Map() }))
      const hit = cache.entries.get(key)
      if (hit !== undefined) return hit
      const found = await load()
      if (cache.entries.size >= max) cache.entries.clear()
      cache.entries.set(key, found)
      return found
    },
  }
}
