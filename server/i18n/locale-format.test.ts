import { expect, test } from 'bun:test'
import { formatDateIn, personNameIn } from './locale-format'

const noon = '2026-12-28T11:00:00Z'
test('dates in the reader’s language; German keeps DD.MM.YYYY', () => {
  expect(formatDateIn('de', noon, 'Europe/Berlin')).toBe('28.12.2026')
  expect(formatDateIn('de-ls', noon, 'Europe/Berlin')).toBe('28.12.2026')
  expect(formatDateIn('fr', noon, 'Europe/Berlin')).toBe('28/12/2026')
  expect(formatDateIn('en', noon, 'Europe/Berlin')).toBe('28/12/2026')
  expect(formatDateIn('ja', noon, 'Europe/Berlin')).toBe('2026/12/28')
  // the event's zone decides the day
  expect(formatDateIn('fr', '2026-12-28T23:30:00Z', 'Europe/Berlin')).toBe('29/12/2026')
})

test('names: family name first in Japanese, Chinese and Hungarian', () => {
  expect(personNameIn('fr', { first: 'Élodie', last: 'Martin' })).toBe('Élodie Martin')
  expect(personNameIn('hu', { first: 'Anna', last: 'Kovács' })).toBe('Kovács Anna')
  expect(personNameIn('ja', { first: '花子', last: '山田' })).toBe('山田 花子')
  expect(personNameIn('de', { title: 'Dr.', first: 'Eva', last: 'Roth' })).toBe('Dr. Eva Roth')
})

test('money in the reader’s language; German keeps the agency’s format', async () => {
  const { formatPriceIn } = await import('./price')
  expect(formatPriceIn('de', 123456, 'EURO')).toBe('1.234,56 €')
  expect(formatPriceIn('de-ls', 1250, 'EURO', true)).toBe('€ 12,50')
  expect(formatPriceIn('fr', 123456, 'EURO').replace(/\s/g, ' ')).toBe('1 234,56 €')
  expect(formatPriceIn('en', 1250, 'EURO')).toBe('€12.50')
  expect(formatPriceIn('ja', 1250, 'EURO')).toBe('€12.50')
  expect(formatPriceIn('fr', 1250, 'CHF').replace(/\s/g, ' ')).toBe('12,50 CHF')
  expect(formatPriceIn('nl', 1250, 'EURO').replace(/\s/g, ' ')).toBe('€ 12,50')
})
