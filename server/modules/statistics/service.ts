// Statistics of one event: registrations over time, status counts and the check-in curve. Buckets are
// computed here (not in SQL) so both dialects agree on days in the event's time zone.
import type { Db } from '../../db/database'
import { safeTimeZone } from '../../i18n/format'
import type { EventRow } from '../events/events.table'
import { formDefinitions } from '../forms/service'
import { answersOf, countAnswers } from '../visitors/answers'

/** YYYY-MM-DD of an instant in a time zone; one formatter per event (building one costs far more than formatting) */
const dayKeyIn = (tz: string) => {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: safeTimeZone(tz), year: 'numeric', month: '2-digit', day: '2-digit' })
  return (iso: string) => f.format(new Date(iso))
}
const QUARTER = 15 * 60_000
/** Answers are counted over the registrations that hold a place: the guests who come. */
const ANSWER_STATUSES = ['CONFIRMED', 'APPEARED'] as const

/** Counts per answer of the event's choice fields (visitors/answers.ts countAnswers), in pages. */
async function answerCounts(db: Db, event: EventRow) {
  const defs = await formDefinitions(db, event)
  const regs: Parameters<typeof countAnswers>[1] = []
  let lastId = 0
  for (;;) {
    const page = await db.selectFrom('event_visitor').select('id').where('event_id', '=', event.id).where('status', 'in', ANSWER_STATUSES).where('id', '>', lastId).orderBy('id').limit(1000).execute()
    if (!page.length) break
    lastId = page[page.length - 1].id
    const ids = page.map((r) => r.id)
    const [values, escorts] = await Promise.all([answersOf(db, ids), db.selectFrom('escort_person').select(['visitor_id', 'covid_state']).where('visitor_id', 'in', ids).execute()])
    for (const id of ids) regs.push({ values: values.get(id), escortCovid: escorts.filter((e) => e.visitor_id === id).map((e) => e.covid_state) })
  }
  return countAnswers(defs, regs)
}

export async function eventStatistics(db: Db, event: EventRow) {
  const [visitors, statuses, presence, answers] = await Promise.all([
    db.selectFrom('event_visitor').select(['registered_at', 'visitor_count']).where('event_id', '=', event.id).where('registered_at', 'is not', null).where('status', '!=', 'DELETED').orderBy('registered_at').execute(),
    db
      .selectFrom('event_visitor')
      .select(['status'])
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('visitor_count').as('persons')])
      .where('event_id', '=', event.id)
      .groupBy('status')
      .execute(),
    db.selectFrom('presence').select(['checkin_at', 'checkout_at']).where('event_id', '=', event.id).execute(),
    answerCounts(db, event),
  ])
  const days = new Map<string, { registrations: number; persons: number }>()
  const dayKey = dayKeyIn(event.timezone)
  for (const v of visitors) {
    const k = dayKey(v.registered_at!)
    const d = days.get(k) ?? { registrations: 0, persons: 0 }
    d.registrations++
    d.persons += v.visitor_count
    days.set(k, d)
  }
  let cumReg = 0
  let cumPersons = 0
  const registrations = [...days].map(([date, d]) => {
    cumReg += d.registrations
    cumPersons += d.persons
    return { date, ...d, cumulativeRegistrations: cumReg, cumulativePersons: cumPersons }
  })
  const events: Array<[number, number]> = []
  for (const p of presence) {
    events.push([new Date(p.checkin_at).getTime(), 1])
    if (p.checkout_at) events.push([new Date(p.checkout_at).getTime(), -1])
  }
  events.sort((a, b) => a[0] - b[0])
  const checkins: Array<{ time: string; checkins: number; checkouts: number; present: number }> = []
  if (events.length) {
    const start = Math.floor(events[0][0] / QUARTER) * QUARTER
    const end = Math.floor(events[events.length - 1][0] / QUARTER) * QUARTER
    let i = 0
    let present = 0
    for (let t = start; t <= end && checkins.length < 2000; t += QUARTER) {
      let ins = 0
      let outs = 0
      while (i < events.length && events[i][0] < t + QUARTER) {
        if (events[i][1] > 0) ins++
        else outs++
        present += events[i][1]
        i++
      }
      checkins.push({ time: new Date(t).toISOString(), checkins: ins, checkouts: outs, present })
    }
  }
  const statusCounts = Object.fromEntries(statuses.map((s) => [s.status, { registrations: Number(s.n), persons: Number(s.persons ?? 0) }]))
  return {
    eventId: event.id,
    timezone: event.timezone,
    registrations,
    statusCounts,
    checkins,
    /** per choice field of the form: registrations and persons per option (confirmed guests) */
    answers,
    totals: {
      registrations: visitors.length,
      persons: visitors.reduce((a, v) => a + v.visitor_count, 0),
      checkins: presence.length,
      presentNow: presence.filter((p) => !p.checkout_at).length,
      maxVisitors: event.max_visitors,
      seatsTaken: event.seats_taken,
    },
  }
}
