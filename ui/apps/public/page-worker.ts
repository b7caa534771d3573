// The public event page's worker (started by ./early.ts): off the page's main thread it
// - loads ICU's date data: the first Intl date format of a renderer process costs 130–240 ms of main
//   thread under 4× CPU throttling (the event's header formats the event's dates); ICU keeps what it
//   loaded for the whole process, so the page's own first format then takes 10–20 ms;
// - reads the seating plan and its first area (as columns): under throttling the page's main thread
//   is busy loading and evaluating its modules, and the tasks that read a response queued behind
//   them (the plan's answer was read 0.45 s after it arrived, the area's 0.5 s); here they are read
//   at once and reach the page in one message, as bytes the page parses.
// A classic script without imports at run time (the page's script-src allows same-origin workers,
// not blob: ones). docs/seating.md, "Speed of the 5,000-chair plan".
import type { SeatingAnswers, WorkerAnswer, WorkerMessage } from './early-requests'

const scope = self as unknown as { postMessage(m: WorkerMessage, transfer: ArrayBuffer[]): void; close(): void }
// what to read comes with the worker's address (a message to a worker that is still starting waits
// for the page's busy main thread to hand it over): ?event=ID[&dates=1]. No language: the answers do
// not depend on it, only error texts do, and the page asks again itself for an answer that is an error.
const query = new URLSearchParams(location.search)
const eventId = Number(query.get('event'))
const headers = { accept: 'application/json' }
/** the embedded frame shows no date: no ICU data to load */
const dates = query.get('dates') === '1'

/**
 * An answer as its bytes, handed over to the page without a copy: the page decodes and parses them.
 * Under 4× throttling the 5,000-chair area's parsed object, copied to the page as a message, took 90 ms
 * of its main thread and a garbage collection; as a string 45 ms; as bytes about 1 ms.
 */
async function read(res: Response): Promise<WorkerAnswer> {
  return { status: res.status, json: (res.headers.get('content-type') ?? '').includes('json'), bytes: await res.arrayBuffer() }
}
const post = (m: SeatingAnswers | null) => scope.postMessage(m, m ? [m.plan.bytes, ...(m.area ? [m.area.answer.bytes] : [])] : [])

/** ICU's date data, once (the options of server/i18n/format.ts `parts`, the formatter the page uses; einlass's default zone: the zone data ICU loads serves every zone). */
let warmed = false
function warmDates() {
  if (warmed) return
  warmed = true
  try {
    new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date())
  } catch {
    // no Intl here: the page loads the data when it formats its first date
  }
}

async function run() {
  const base = `/proxy/api/public/events/${eventId}`
  try {
    const plan = await read(await fetch(`${base}/seatingplan`, { headers, credentials: 'same-origin' }))
    const areaId = plan.status === 200 && plan.json ? (JSON.parse(new TextDecoder().decode(plan.bytes)) as { areas?: Array<{ id: number }> }).areas?.[0]?.id : undefined
    const area =
      typeof areaId === 'number'
        ? fetch(`${base}/seatingplanArea`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ areaId, chairFormat: 'columns' }), credentials: 'same-origin' })
        : null
    // while the area is under way
    if (dates) warmDates()
    post({ plan, area: area && typeof areaId === 'number' ? { areaId, answer: await read(await area) } : null })
  } catch {
    // no connection: the page asks itself
    post(null)
  } finally {
    if (dates) warmDates()
    scope.close()
  }
}
if (Number.isSafeInteger(eventId) && eventId > 0) void run()
else scope.close()
