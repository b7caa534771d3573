// Load benchmark of issue 5 against the compiled binary on SQLite (figures in docs/benchmarks.md):
//   1. registrations through a 20-field form with two escort persons each (target >= 1,500/s)
//   2. timeslot reservations (target >= 3,000/s)
// both at 64 connections, p99 < 50 ms. Bounded: a fixed duration per phase, loopback only.
//
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/forms.ts [--seconds 10] [--connections 64]
import autocannon from 'autocannon'
import { E2E_BINARY, startServerProcess } from '../server/testing/process'

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const SECONDS = arg('seconds', 10)
const CONNECTIONS = arg('connections', 64)

const server = await startServerProcess({ command: [E2E_BINARY], env: { EINLASS_LOG_LEVEL: 'error' } })
let cookie = ''
async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r
}

try {
  const setup = await call('POST', '/proxy/api/setup', { agencyName: 'Bench', email: 'bench@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
  cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const start = new Date(Date.now() + 30 * 86400_000).toISOString()
  const end = new Date(Date.now() + 30 * 86400_000 + 4 * 3600_000).toISOString()
  const event = await (await call('POST', '/proxy/api/events', { displayName: 'Bench', startDate: start, endDate: end, maxVisitors: null, maxVisitorPerSubscription: 3 })).json()

  // the 20-field form: 5 basic default fields + 15 more of the common types
  const add = async (f: Record<string, unknown>) => (await call('POST', `/proxy/api/events/${event.id}/fields`, f)).json()
  const F = {
    company: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'COMPANY', displayName: 'Firma', appearance: 'REQUIRED' }),
    position: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'POSITION', displayName: 'Position' }),
    phone: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon', appearance: 'REQUIRED' }),
    birthday: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'BIRTHDAY', displayName: 'Geburtstag', settings: { minAge: 18 } }),
    address: await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'ADDRESS', displayName: 'Adresse', appearance: 'REQUIRED' }),
    gender: await add({ type: 'GENDER', displayName: 'Geschlecht' }),
    country: await add({ type: 'COUNTRY', displayName: 'Land' }),
    diet: await add({ type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegetarisch', 'Vegan'], appearance: 'REQUIRED' }),
    hotel: await add({ type: 'YES_NO', displayName: 'Hotel?', appearance: 'REQUIRED' }),
    nights: await add({ type: 'NUMBER', displayName: 'Nächte', conditions: [] }),
    arrival: await add({ type: 'DATE', displayName: 'Anreise' }),
    time: await add({ type: 'TIME', displayName: 'Ankunftszeit' }),
    note: await add({ type: 'TEXTAREA', displayName: 'Anmerkungen' }),
    workshop: await add({ type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'A' }, { displayName: 'B' }] }),
    web: await add({ type: 'TEXT', displayName: 'Webseite' }),
  }
  // conditions make the engine work: nights only for hotel guests
  await call('PUT', `/proxy/api/events/${event.id}/fields/${F.nights.id}`, { ...F.nights, conditions: [{ fieldId: F.hotel.id, operator: 'IS_TRUE' }] })
  const fields = {
    [F.company.id]: 'ACME GmbH',
    [F.position.id]: 'Leitung',
    [F.phone.id]: '030 1234567',
    [F.birthday.id]: '01.02.1980',
    [F.address.id]: { street: 'Hauptstr.', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' },
    [F.gender.id]: 'FEMALE',
    [F.country.id]: 'DEU',
    [F.diet.id]: { selected: ['Vegan'], custom: null },
    [F.hotel.id]: true,
    [F.nights.id]: 2,
    [F.arrival.id]: '2026-12-01',
    [F.time.id]: '09:30',
    [F.note.id]: 'Rollstuhlgerechter Zugang erbeten.',
    [F.workshop.id]: [{ fieldValueId: F.workshop.definedValues[0].id, amount: 1 }],
    [F.web.id]: 'https://example.org',
  }
  const escorts = [
    { firstName: 'Eva', lastName: 'Eins' },
    { firstName: 'Emil', lastName: 'Zwei' },
  ]
  const count = (await (await call('GET', `/proxy/api/events/${event.id}/fields`)).json()).fields.filter((f: any) => !String(f.defaultField ?? '').startsWith('ESCORT_')).length
  cookie = ''

  let n = 0
  const registration = await autocannon({
    url: `${server.url}/proxy/api/public/events/${event.id}/registrations`,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: `g${n++}@bench.example`, fields, escortPersons: escorts }) }) }],
  })

  cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const slots = await add({ type: 'TIMESLOT', displayName: 'Slot', timeslots: Array.from({ length: 20 }, (_, i) => ({ displayName: `Slot ${i}`, capacity: 1_000_000 })) })
  cookie = ''
  let m = 0
  const reservation = await autocannon({
    url: `${server.url}/proxy/api/public/reservation/timeslot`,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ timeslotId: slots.timeslots[m % 20].id, identification: `bench-visitor-${m++}`, amount: 1 }) }) }],
  })

  // calibration: the same server answering its cheapest call, to read the figures against the
  // machine's state at the time (other processes share the 2 cores)
  const health = await autocannon({ url: `${server.url}/health`, connections: CONNECTIONS, duration: Math.min(5, SECONDS) })

  const line = (name: string, r: autocannon.Result, target: number) => {
    const ok = r['2xx']
    const rate = ok / SECONDS
    return `${name}: ${rate.toFixed(0)}/s (target >= ${target}), p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}${rate >= target && r.latency.p99 < 50 ? '' : '  <-- below target'}`
  }
  console.log(`einlass forms bench: ${CONNECTIONS} connections, ${SECONDS} s per phase, SQLite, compiled binary, ${count} form fields`)
  console.log(`calibration GET /health: ${(health['2xx'] / Math.min(5, SECONDS)).toFixed(0)}/s, p99 ${health.latency.p99} ms`)
  console.log(line('registrations (20 fields, 2 escorts)', registration, 1500))
  console.log(line('timeslot reservations', reservation, 3000))
} finally {
  await server.stop()
}
