import { expect, test } from 'bun:test'
import { interpolate } from './interpolate'
import { t } from './catalogue'

test('placeholders and plurals (issue 10: "1 Einträge", "Person(en)")', () => {
  expect(interpolate('Hallo {name}', { name: 'Ada' })).toBe('Hallo Ada')
  expect(interpolate('Hallo {name}')).toBe('Hallo {name}')
  const s = '{n, plural, one {# Eintrag} other {# Einträge}} · Seite {page}'
  expect(interpolate(s, { n: 1, page: 2 })).toBe('1 Eintrag · Seite 2')
  expect(interpolate(s, { n: 0, page: 1 })).toBe('0 Einträge · Seite 1')
  expect(interpolate(s, { n: 12, page: 1 })).toBe('12 Einträge · Seite 1')
  expect(interpolate('{n, plural, one {Begleitperson {name}} other {# für {name}}}', { n: 3, name: 'Eva' })).toBe('3 für Eva')
  expect(interpolate(s, { page: 1 })).toBe(`${s.slice(0, s.indexOf(' · '))} · Seite 1`)
})

test('the catalogue says 1 Eintrag, 1 Gast, 1 Person', () => {
  expect(t('de', 'organiser.total', { n: 1 })).toBe('1 Eintrag')
  expect(t('de', 'organiser.total', { n: 2 })).toBe('2 Einträge')
  expect(t('de', 'guests.invite.text', { n: 1 })).toBe('Die aktuelle Auswahl enthält 1 Gast.')
  expect(t('de', 'checkin.checkedIn', { n: 1 })).toBe('1 Person eingecheckt.')
  expect(t('de', 'checkin.checkedIn', { n: 3 })).toBe('3 Personen eingecheckt.')
  expect(t('en', 'checkin.checkedIn', { n: 1 })).toBe('1 person checked in.')
  expect(t('de', 'guest.persons', { n: 1 })).toBe('1 Person')
  expect(t('de', 'registration.freePlaces', { n: 1 })).toBe('Noch 1 Platz frei')
})

test('the du form addresses with du everywhere (no text left in the Sie form)', () => {
  const { catalogues } = require('./catalogue') as typeof import('./catalogue')
  const sie = /\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b/
  // "Sie gelten …" means "they apply": not an address
  const left = Object.entries(catalogues.de).filter(([k, v]) => sie.test(v) && catalogues['de-du'][k] === v && !/^Sie gelten\b/.test(v))
  expect(left.map(([k]) => k)).toEqual([])
})

test('plurals follow the language: Russian, Polish and Czech have several forms, exact matches win', () => {
  const ru = '{n, plural, one {# место} few {# места} many {# мест} other {# места}}'
  expect([1, 2, 5, 21, 22, 25, 11].map((n) => interpolate(ru, { n }, 'ru'))).toEqual(['1 место', '2 места', '5 мест', '21 место', '22 места', '25 мест', '11 мест'])
  const pl = '{n, plural, one {# miejsce} few {# miejsca} many {# miejsc} other {# miejsca}}'
  expect([1, 3, 5, 22, 12].map((n) => interpolate(pl, { n }, 'pl'))).toEqual(['1 miejsce', '3 miejsca', '5 miejsc', '22 miejsca', '12 miejsc'])
  const cs = '{n, plural, one {# místo} few {# místa} other {# míst}}'
  expect([1, 3, 5].map((n) => interpolate(cs, { n }, 'cs'))).toEqual(['1 místo', '3 místa', '5 míst'])
  // French: 0 is singular
  expect(interpolate('{n, plural, one {# place} other {# places}}', { n: 0 }, 'fr')).toBe('0 place')
  expect(interpolate('{n, plural, =0 {aucune place} one {# place} other {# places}}', { n: 0 }, 'fr')).toBe('aucune place')
  // Japanese: only other
  expect(interpolate('{n, plural, other {#件}}', { n: 1 }, 'ja')).toBe('1件')
})
