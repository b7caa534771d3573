// The offline desk's server half (issue 26, docs/checkin-offline.md): the download of an event of
// 20,000 registrations (a quarter with an escort) and the sync of 5,000 queued check-ins, in process
// through the app (no HTTP hop), on SQLite and, when it answers, Postgres. Writes nothing; prints the
// figures docs/benchmarks.md records.
//   node_modules/.bin/bun bench/checkin-offline.ts            (GUESTS=20000 ITEMS=5000 DIALECTS=sqlite,postgres)
import { createHarness } from '../server/testing/harness'
import { licenseWith } from '../server/testing/organiser'
import type { Dialect } from '../server/db/database'

const GUESTS = Number(process.env.GUESTS ?? 20_000)
const ITEMS = Number(process.env.ITEMS ?? 5000)
const DIALECTS = (process.env.DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[]

async function run(dialect: Dialect) {
  const h = await createHarness(dialect, { license: licenseWith([], { events: -1 }), smtp: false })
  try {
    const admin = await h.admin()
    const e = await admin.post('/proxy/api/events', (await import('../server/testing/harness')).eventBody())
    const eventId = e.body.id as number
    const now = new Date().toISOString()
    const t0 = performance.now()
    for (let i = 0; i < GUESTS; i += 500) {
      const rows = Array.from({ length: Math.min(500, GUESTS - i) }, (_, j) => {
        const n = i + j
        return {
          event_id: eventId, status: 'CONFIRMED', vip: false, salutation: 'Frau', first_name: `Vorname${n % 97}`, last_name: `Nachname${n}`, email: `gast${n}@bench.example`,
          visitor_count: n % 4 === 0 ? 2 : 1, seats_held: 1, event_token: `et${n}-${eventId}`, download_token: `dt${n}-${eventId}`, ticket_code: `B${String(n).padStart(9, '0')}`,
          source: 'IMPORT', registered_at: now, created_at: now, updated_at: now,
        }
      })
      const ids = await h.ctx.db.insertInto('event_visitor').values(rows as never).returning('id').execute()
      const escorts = ids.filter((_, j) => (i + j) % 4 === 0).map((r) => ({ visitor_id: r.id, number: 1, salutation: 'Herr', first_name: 'Begleitung', last_name: `Nr${r.id}` }))
      if (escorts.length) await h.ctx.db.insertInto('escort_person').values(escorts as never).execute()
    }
    const seeded = performance.now() - t0
    const desk = (await admin.post(`/proxy/api/events/${eventId}/checkin/desks`, { name: 'Bench' })).body.deskId as number
    const d0 = performance.now()
    const dl = await admin.get(`/proxy/api/events/${eventId}/checkin/offline?deskId=${desk}`)
    const downloadMs = performance.now() - d0
    if (dl.status !== 200 || dl.body.registrations.length !== GUESTS) throw new Error(`download: ${dl.status} ${dl.body?.registrations?.length}`)
    const bytes = Buffer.byteLength(dl.text)
    const gz = Bun.gzipSync(Buffer.from(dl.text)).length
    const regs = dl.body.registrations as Array<{ v: number }>
    const at = new Date(Date.now() - 600_000).toISOString()
    const items = regs.slice(0, ITEMS).map((r, i) => ({ key: `b-${i}`, visitorId: r.v, person: 0, action: 'IN', at }))
    const s0 = performance.now()
    const s = await admin.post(`/proxy/api/events/${eventId}/checkin/sync`, { deskId: desk, cursor: dl.body.cursor, items })
    const syncMs = performance.now() - s0
    const applied = s.body.results.filter((x: any) => x.result === 'APPLIED').length
    const r0 = performance.now()
    const again = await admin.post(`/proxy/api/events/${eventId}/checkin/sync`, { deskId: desk, cursor: s.body.cursor, items })
    const againMs = performance.now() - r0
    const dup = again.body.results.filter((x: any) => x.result === 'DUPLICATE').length
    console.log(
      JSON.stringify({
        dialect, guests: GUESTS, seededMs: Math.round(seeded),
        download: { ms: Math.round(downloadMs), bytes, gzipBytes: gz, perRegistration: Math.round(bytes / GUESTS) },
        sync: { items: ITEMS, applied, ms: Math.round(syncMs), perSecond: Math.round(ITEMS / (syncMs / 1000)), changesReturned: s.body.changes.length, counts: s.body.counts },
        resend: { duplicates: dup, ms: Math.round(againMs), perSecond: Math.round(ITEMS / (againMs / 1000)) },
      }),
    )
  } finally {
    await h.close()
  }
}

for (const d of DIALECTS) {
  try {
    await run(d)
  } catch (e) {
    console.log(JSON.stringify({ dialect: d, error: String(e) }))
  }
}
process.exit(0)
