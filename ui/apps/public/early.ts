// The public event page's first requests, started by its HTML before the UI's modules have loaded
// (build.ts puts this script first in index-public.html, as a classic script: no imports). Under 4×
// CPU throttling the modules take 0.4–0.6 s to load, evaluate and render before the page could ask
// for anything; here the event, its form and its seating plan leave as soon as the HTML is read, and
// the plan's first area right after the plan answers, together with the seat picker's chunk
// (modulepreload, only for an event with a plan). The area comes as columns (chairFormat, einlass's
// extension of the call): 5,000 chairs are 1.9 MB of JSON objects, a fraction of that as columns.
// The page takes each answer once (takeEarly in ui/apps/public/index.tsx) and asks itself for what is
// not here. docs/seating.md, "Speed of the 5,000-chair plan".

import type { EarlyRequests } from './early-requests'

;(() => {
  const match = /^\/public\/event\/(\d+)(\/frame)?\/?$/.exec(location.pathname)
  if (!match) return
  const eventId = Number(match[1])
  const read = (f: () => string | null) => {
    try {
      return f()
    } catch {
      return null
    }
  }
  // the same headers the page's own calls send (ui/api/client.ts)
  const headers: Record<string, string> = { accept: 'application/json', 'x-language': read(() => localStorage.getItem('einlass.language')) ?? 'de' }
  const account = read(() => sessionStorage.getItem('einlass.account'))
  if (account) headers['x-account-id'] = account
  const call = (path: string, body?: unknown) => {
    const p = fetch(`/proxy/api/public/events/${eventId}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    })
    // a failed request is the page's to report when it takes the answer
    p.catch(() => {})
    return p
  }
  const picker = (document.currentScript as HTMLScriptElement | null)?.dataset.seatPicker?.split(' ').filter(Boolean) ?? []
  const plan = call('/seatingplan')
  const early: EarlyRequests = {
    eventId,
    event: call(''),
    form: call('/form'),
    plan,
    area: plan
      .then((r) => (r.ok ? r.clone().json() : null))
      .then((p: { areas?: Array<{ id: number }> } | null) => {
        const areaId = p?.areas?.[0]?.id
        if (typeof areaId !== 'number') return null
        for (const href of picker) {
          const link = document.createElement('link')
          link.rel = 'modulepreload'
          link.href = href
          document.head.appendChild(link)
        }
        return { areaId, response: call('/seatingplanArea', { areaId, chairFormat: 'columns' }) }
      })
      .catch(() => null),
  }
  ;(window as unknown as { __einlassEarly?: EarlyRequests }).__einlassEarly = early
  // The first date formatted in a time zone loads ICU's zone data (0.1 s of main thread under 4×
  // throttling, in the event's header): done here while the page waits for its modules, not while
  // the plan's chairs wait for the header to render.
  const warm = () => new Date(0).toLocaleString('de-DE', { timeZone: 'Europe/Berlin' })
  // (the embedded frame shows no header: nothing to warm there)
  if (match[2]) return
  if ('requestIdleCallback' in window) requestIdleCallback(warm, { timeout: 300 })
  else setTimeout(warm, 50)
})()
