// CSV import of 100,000 rows against the compiled binary on SQLite: upload, run (one transaction),
// poll the task; the server's resident memory is sampled every 100 ms. Target: < 30 s, memory bounded.
//   node_modules/.bin/bun build.ts --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/organiser-import.ts
import { createEventVia, startBinary } from './organiser-lib'

const ROWS = Number(process.env.ROWS ?? 100_000)
const s = await startBinary()
try {
  const eventId = await createEventVia(s, { maxVisitors: null })
  const lines = ['Anrede;Vorname;Nachname;E-Mail;Firma;VIP;Tags;Begleitung 1 Vorname;Begleitung 1 Nachname']
  for (let i = 0; i < ROWS; i++) lines.push(`${i % 2 ? 'Herr' : 'Frau'};Vorname${i};Nachname${i};gast${i}@import.example;Firma ${i % 500};${i % 20 === 0 ? 'ja' : ''};${i % 10 === 0 ? 'Presse|Nord' : ''};${i % 4 === 0 ? `Begleitung${i};Escort` : ';'}`)
  const csv = lines.join('\n')
  console.log(`file: ${ROWS} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB; server RSS before ${s.rssMb().toFixed(0)} MB`)
  let peak = s.rssMb()
  const sampler = setInterval(() => (peak = Math.max(peak, s.rssMb())), 100)
  const t0 = performance.now()
  const form = new FormData()
  form.append('file', new File([csv], 'gaeste.csv', { type: 'text/csv' }))
  const { cookie, 'x-account-id': account } = s.headers
  const up = await fetch(`${s.url}/proxy/api/events/${eventId}/imports`, { method: 'POST', headers: { cookie, 'x-account-id': account }, body: form })
  if (up.status !== 201) throw new Error(`upload ${up.status} ${await up.text()}`)
  const u = (await up.json()) as { id: number; suggestedMapping: Record<string, number> }
  const t1 = performance.now()
  const run = await fetch(`${s.url}/proxy/api/events/${eventId}/imports/${u.id}/run`, { method: 'POST', headers: s.headers, body: JSON.stringify({ mapping: u.suggestedMapping }) })
  const task = (await run.json()) as { id: number }
  let status = ''
  let info: any
  for (;;) {
    const r = (await (await fetch(`${s.url}/proxy/api/tasks/${task.id}`, { headers: s.headers })).json()) as { status: string; taskInfo: unknown }
    status = r.status
    info = r.taskInfo
    if (status === 'FINISHED' || status === 'ERROR') break
    await Bun.sleep(200)
  }
  const t2 = performance.now()
  clearInterval(sampler)
  const list = (await (await fetch(`${s.url}/proxy/api/events/${eventId}/visitors?perPage=1`, { headers: s.headers })).json()) as { total: number }
  console.log(`upload + analysis ${((t1 - t0) / 1000).toFixed(1)} s, import task ${((t2 - t1) / 1000).toFixed(1)} s, total ${((t2 - t0) / 1000).toFixed(1)} s; status ${status} ${JSON.stringify(info)}`)
  console.log(`guests on the list: ${list.total}; server RSS peak ${peak.toFixed(0)} MB, after ${s.rssMb().toFixed(0)} MB`)
  console.log(`target < 30 s: ${(t2 - t0) / 1000 < 30 && list.total === ROWS ? 'PASS' : 'FAIL'}`)
} finally {
  await s.stop()
}
