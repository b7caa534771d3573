// The public event page's first requests, started by its HTML before the UI's modules have loaded
// (ui/bundle.ts puts this script first in index-public.html, as a classic script: no imports at run
// time). Under 4× CPU throttling the modules take 0.4–0.6 s to load, evaluate and render before the
// page could ask for anything; here the event and its form leave as soon as the HTML is read, and a
// worker (./page-worker.ts) reads the seating plan and, right after it, the plan's first area (as
// columns, einlass's extension of the call: 5,000 chairs are 1.9 MB of JSON objects, a fraction of
// that as columns) off the main thread. For an event with a plan the server answers with the seating
// page (index-public-seating.html), whose first module draws the picker from the worker's answers
// before the app starts (./plan-first.tsx). The page takes each answer once (takeEarly in
// ui/apps/public/index.tsx) and asks itself for what is not here. docs/seating.md, "Speed of the
// 5,000-chair plan".

import type { EarlyRequests, SeatingAnswers, WorkerMessage } from './early-requests'

;(() => {
  const match = /^\/public\/event\/(\d+)(\/frame)?\/?$/.exec(location.pathname)
  if (!match) return
  const eventId = Number(match[1])
  // No storage is read here (the language, the account): each read is a synchronous round trip to
  // the browser process while it is busy loading the page, 10–50 ms of this script under throttling.
  // The answers asked for here do not depend on either, only their error texts do: the page asks
  // again itself when an early answer is an error.
  const headers = { accept: 'application/json' }
  const call = (path: string) => {
    const p = fetch(`/proxy/api/public/events/${eventId}${path}`, { headers, credentials: 'same-origin' })
    // a failed request is the page's to ask again when it takes the answer
    p.catch(() => {})
    return p
  }
  const script = document.currentScript as HTMLScriptElement | null
  const early: EarlyRequests = { eventId }
  // the seating plan and its first area, read by the worker (./page-worker.ts), which also loads
  // ICU's date data (the embedded frame shows no date); started first, its script is a request away
  const src = script?.dataset.worker
  if (src && typeof Worker === 'function')
    try {
      const worker = new Worker(`${src}?event=${eventId}${match[2] ? '' : '&dates=1'}`)
      early.seating = new Promise<SeatingAnswers | null>((done) => {
        worker.onmessage = ({ data }: MessageEvent<WorkerMessage>) => done(data)
        worker.onerror = () => done(null)
      })
    } catch {
      early.seating = undefined
    }
  early.event = call('')
  early.form = call('/form')
  ;(window as unknown as { __einlassEarly?: EarlyRequests }).__einlassEarly = early
})()
