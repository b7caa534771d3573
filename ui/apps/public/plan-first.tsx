// The seating page's first module (index-public-seating.html, served for the public page of an event
// whose plan has an area): it draws the seat picker as soon as the page's worker has read the plan and
// its first area, and only then starts the app, whose modules the HTML has preloaded meanwhile. Under
// 4× CPU throttling the app's modules took 0.6–1.1 s of main thread to evaluate and the page's first
// render another 0.3 s before the picker could draw (docs/seating.md, "Speed of the 5,000-chair
// plan"); this module is Preact, the picker and the texts it shows.
//
// Until the registration page takes it over (DrawnSeatPicker, in the form), the picker shows the plan
// alone in the page's column and card: a chair's popup opens, its button waits for the page (a hold
// belongs to the form's visit and shares its countdown). When the page takes it, the header and the
// event appear above it and the page scrolls by their height: the plan never moves on the screen
// (a tap meant for a chair must not land on what moved under it; the page then opens at its plan,
// the event's header above). The app starts
// - right after the plan's first frame,
// - at once when the worker has no plan or area to give (an error, no connection, no Worker),
// - at once for a guest who chose another language than German (the picker would speak German until
//   the app has loaded the language),
// - after 1.5 s when the worker has not answered: the page never waits long for its plan.
import { render } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import SeatPicker, { type SeatPickerProps } from '../../components/seat-picker'
import type { AreaAnswer } from '../../components/seat-picker/model'
import { initialLanguage } from '../../i18n'
import '../../i18n/part-public'
import type { DrawnPicker, EarlyRequests, WorkerAnswer } from './early-requests'

type Plan = NonNullable<SeatPickerProps['plan']>
const scope = window as { __einlassEarly?: EarlyRequests; __einlassPicker?: DrawnPicker }

let started = false
function startApp() {
  if (started) return
  started = true
  const app = document.querySelector<HTMLLinkElement>('link[data-app]')?.href
  if (app) void import(/* @vite-ignore */ app)
}

const json = <T,>(a: WorkerAnswer | undefined): T | undefined => {
  if (!a || a.status !== 200 || !a.json) return undefined
  try {
    return JSON.parse(new TextDecoder().decode(a.bytes)) as T
  } catch {
    return undefined
  }
}

/**
 * The picker in what stands in for the page: the page's column and the registration card, so the
 * plan has the width it keeps in the form; above the app's element, so the app's first frames
 * (a spinner) do not move it.
 */
function draw(eventId: number, plan: Plan, initial: { areaId: number; answer: AreaAnswer }) {
  const shell = document.createElement('div')
  shell.className = 'public plan-first'
  // the page's main landmark until the page takes the plan (the app's own main comes with it)
  shell.innerHTML = '<main class="content narrow"><div class="public-page"><section class="card registration-card"></section></div></main>'
  const root = document.createElement('div')
  shell.querySelector('section')!.append(root)
  document.getElementById('app')!.before(shell)
  render(<SeatPicker eventId={eventId} maxPerVisit={0} identification="" chairs={{}} setChair={() => {}} persons={1} plan={plan} initial={initial} waiting />, root)
  const discard = () => {
    render(null, root)
    shell.remove()
  }
  function DrawnSeatPicker(props: SeatPickerProps) {
    const host = useRef<HTMLDivElement>(null)
    useLayoutEffect(() => {
      // the page's header and event appear above: a plan on the screen stays on its spot (the page
      // scrolls by what appeared), so a tap meant for a chair never lands on what moved under it;
      // moving an element takes the focus from what is in it, so a guest in the chair's popup gets it back
      const was = root.getBoundingClientRect()
      const top = was.bottom > 0 && was.top < innerHeight ? was.top : null
      const focused = root.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null
      host.current!.append(root)
      shell.remove()
      if (top !== null) scrollBy(0, root.getBoundingClientRect().top - top)
      focused?.focus({ preventScroll: true })
      return discard
    }, [])
    useLayoutEffect(() => {
      render(<SeatPicker {...props} />, root)
    })
    return <div ref={host} />
  }
  const drawn: DrawnPicker = { eventId, plan, initial, Picker: DrawnSeatPicker, discard }
  scope.__einlassPicker = drawn
}

const early = scope.__einlassEarly
const seating = early?.seating
if (!early || !seating || initialLanguage() !== 'de') startApp()
else {
  const late = setTimeout(startApp, 1500)
  void seating.then((answers) => {
    clearTimeout(late)
    // the app started meanwhile and took the answers itself
    if (started || early.seating !== seating) return startApp()
    const plan = json<Plan>(answers?.plan)
    const area = answers?.area
    const first = area && plan?.areas[0]?.id === area.areaId ? json<AreaAnswer>(area.answer) : undefined
    if (plan && area && first) {
      early.seating = undefined
      try {
        draw(early.eventId, plan, { areaId: area.areaId, answer: first })
      } catch {
        // the app draws the picker itself (it reads plan and area again)
        scope.__einlassPicker?.discard()
        scope.__einlassPicker = undefined
      }
    }
    // the drawn frame goes to the screen first, then the app's modules run
    requestAnimationFrame(() => setTimeout(startApp, 0))
  })
}
