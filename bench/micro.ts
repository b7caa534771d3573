// Micro benchmarks of hot functions whose speed tests used to assert absolute times inside the suite
// (issue 20 item 31: a loaded CI machine failed them while the behaviour was right). Printed for
// docs/benchmarks.md; nothing here runs in `npm test`.
//   node_modules/.bin/bun bench/micro.ts
import { signTicketCode, verifyTicketCode } from '../server/modules/checkin/signed-code'
import { type Chair, chairAt } from '../ui/components/seat-picker/model'

function perCall(n: number, f: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(n, 1000); i++) f(i) // warm up
  const t0 = performance.now()
  for (let i = 0; i < n; i++) f(i)
  return (performance.now() - t0) / n
}

const key = Buffer.alloc(32, 7).toString('base64')
const code = signTicketCode(key, { eventId: 123, visitorId: 4_567_890, person: 2, ticketCode: 'ABCDE12345' })
const verify = perCall(20_000, () => verifyTicketCode(key, code))

const many: Chair[] = []
for (let r = 0; r < 50; r++)
  for (let i = 0; i < 100; i++)
    many.push({ id: r * 100 + i, label: `${r + 1} ${i + 1}`, percentX: i, percentY: r * 2, percentWidth: 0.8, percentHeight: 1.5, viewType: 'CIRCLE', priceCategory: null, status: null, options: [], places: 1, freeChairs: 1, minAmount: 1, maxAmount: 1 })
const hit = perCall(2_000, (k) => chairAt(many, (k % 100) + 0.4, ((k * 7) % 50) * 2 + 0.75))

console.log('| function | ms per call | target |')
console.log('|---|---:|---|')
console.log(`| verifyTicketCode (signed QR, check-in hot path) | ${verify.toFixed(4)} | < 0.2 |`)
console.log(`| chairAt, 5,000 chairs (seat picker hit test) | ${hit.toFixed(4)} | < 1 |`)
