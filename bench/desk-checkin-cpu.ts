// CPU per desk check-in in process (issue 25: before/after of a change on the authenticated path):
// the real app through app.handle on SQLite, N guests with tickets, then N check-ins by ticket code,
// CONCURRENCY in flight; prints the process' CPU time (user + system) per check-in for ROUNDS
// rounds. In process, so no HTTP and no load generator share the measurement; other processes on the
// machine still slow the CPU itself, so compare builds in alternating runs.
//   node_modules/.bin/bun bench/desk-checkin-cpu.ts        # N=600 CONCURRENCY=16 ROUNDS=3
import { createHarness } from '../server/testing/harness'
import { createEvent } from '../server/testing/organiser'

const N = Number(process.env.N ?? 600)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16)
const ROUNDS = Number(process.env.ROUNDS ?? 3)

const h = await createHarness('sqlite', { smtp: false })
try {
  const admin = await h.admin()
  const e = await createEvent(admin, { maxVisitors: null })
  const perRound: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const codes: string[] = []
    for (let i = 0; i < N; i++) {
      const r = await admin.post(`/proxy/api/events/${e.id}/visitors`, { salutation: 'Frau', firstName: 'Grete', lastName: `Gast ${round}-${i}`, email: `g${round}.${i}@bench.example`, status: 'CONFIRMED' })
      if (r.status !== 201) throw new Error(`guest: ${r.status} ${r.text}`)
      codes.push(r.body.ticketCode ?? (await admin.get(`/proxy/api/events/${e.id}/visitors/${r.body.id}`)).body.ticketCode)
    }
    let next = 0
    const cpu0 = process.cpuUsage()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          const i = next++
          const r = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: codes[i], checkinGuests: [0], nonce: `desk-cpu-bench-${round}-${i}-0000` })
          if (r.status !== 200) throw new Error(`check-in: ${r.status} ${r.text}`)
        }
      }),
    )
    const cpu = process.cpuUsage(cpu0)
    perRound.push((cpu.user + cpu.system) / N)
    console.log(`round ${round + 1}: ${perRound[round].toFixed(1)} µs CPU per desk check-in`)
  }
  console.log(`best ${Math.min(...perRound).toFixed(1)} µs, median ${[...perRound].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)].toFixed(1)} µs (load ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')})`)
} finally {
  await h.close()
}
