import { describe, expect, test } from 'bun:test'
import { formatDate, formatDateTime, formatMoney, formatTime, utcToZonedInput, zonedToUtc } from './format'

const BERLIN = 'Europe/Berlin'

describe('dates and times (spec: DD.MM.YYYY, HH:mm, Europe/Berlin by default)', () => {
  test('DD.MM.YYYY and HH:mm in the event’s zone', () => {
    expect(formatDate('2027-03-05T09:07:00Z')).toBe('05.03.2027')
    expect(formatTime('2027-03-05T09:07:00Z')).toBe('10:07')
    expect(formatDateTime('2027-07-05T09:07:00Z')).toBe('05.07.2027, 11:07')
    expect(formatTime('2027-07-05T21:07:00Z', BERLIN)).toBe('23:07')
    expect(formatTime('2027-07-05T12:00:00Z', 'America/New_York')).toBe('08:00')
    expect(formatTime('2027-07-05T12:05:00Z', BERLIN, true)).toBe('2:05 PM')
  })

  test('midnight crosses the date in the zone, not in UTC', () => {
    expect(formatDate('2026-12-31T23:30:00Z')).toBe('01.01.2027')
    expect(formatTime('2026-12-31T23:30:00Z')).toBe('00:30')
    expect(formatDate('2026-12-31T23:30:00Z', 'UTC')).toBe('31.12.2026')
    expect(formatTime('2027-01-01T00:00:00Z', BERLIN)).toBe('01:00')
  })

  test('accepts Date objects as well as ISO strings', () => {
    expect(formatDate(new Date('2027-02-28T12:00:00Z'))).toBe('28.02.2027')
  })
})

describe('zonedToUtc / utcToZonedInput', () => {
  test('winter (CET, +1) and summer (CEST, +2)', () => {
    expect(zonedToUtc('2026-01-15T18:00', BERLIN).toISOString()).toBe('2026-01-15T17:00:00.000Z')
    expect(zonedToUtc('2026-07-01T18:00', BERLIN).toISOString()).toBe('2026-07-01T16:00:00.000Z')
    expect(zonedToUtc('2026-07-01T18:00:30', BERLIN).toISOString()).toBe('2026-07-01T16:00:30.000Z')
  })

  test('spring forward (29.03.2026, 02:00 → 03:00): times in the gap move forward', () => {
    expect(zonedToUtc('2026-03-29T01:59', BERLIN).toISOString()).toBe('2026-03-29T00:59:00.000Z')
    expect(zonedToUtc('2026-03-29T02:30', BERLIN).toISOString()).toBe('2026-03-29T01:30:00.000Z')
    expect(zonedToUtc('2026-03-29T03:00', BERLIN).toISOString()).toBe('2026-03-29T01:00:00.000Z')
    expect(utcToZonedInput(zonedToUtc('2026-03-29T02:30', BERLIN), BERLIN)).toBe('2026-03-29T03:30')
  })

  test('fall back (25.10.2026, 03:00 → 02:00): an hour that happens twice means the first one', () => {
    expect(zonedToUtc('2026-10-25T01:30', BERLIN).toISOString()).toBe('2026-10-24T23:30:00.000Z')
    expect(zonedToUtc('2026-10-25T02:30', BERLIN).toISOString()).toBe('2026-10-25T00:30:00.000Z')
    expect(zonedToUtc('2026-10-25T03:00', BERLIN).toISOString()).toBe('2026-10-25T02:00:00.000Z')
    // both instants of the doubled hour show as 02:30
    expect(formatTime('2026-10-25T00:30:00Z', BERLIN)).toBe('02:30')
    expect(formatTime('2026-10-25T01:30:00Z', BERLIN)).toBe('02:30')
  })

  test('other zones and their own DST dates', () => {
    expect(zonedToUtc('2026-03-08T02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z')
    expect(zonedToUtc('2026-11-01T01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z')
    expect(zonedToUtc('2026-06-01T09:00', 'Asia/Tokyo').toISOString()).toBe('2026-06-01T00:00:00.000Z')
    expect(zonedToUtc('2026-06-01T09:00', 'UTC').toISOString()).toBe('2026-06-01T09:00:00.000Z')
  })

  test('round trip for every hour of a year', () => {
    for (let ts = Date.UTC(2026, 0, 1); ts < Date.UTC(2027, 0, 1); ts += 3600_000) {
      const local = utcToZonedInput(new Date(ts), BERLIN)
      const back = zonedToUtc(local, BERLIN).getTime()
      // the second occurrence of the doubled hour maps to the first one
      expect(back === ts || back === ts - 3600_000).toBe(true)
      expect(utcToZonedInput(new Date(back), BERLIN)).toBe(local)
    }
  })
})

describe('money (two decimals, decimal comma, optional currency prefix)', () => {
  test('cents to text', () => {
    expect(formatMoney(0)).toBe('0,00')
    expect(formatMoney(5)).toBe('0,05')
    expect(formatMoney(1990)).toBe('19,90')
    expect(formatMoney(123456)).toBe('1.234,56')
    expect(formatMoney(123456789)).toBe('1.234.567,89')
    expect(formatMoney(-2500)).toBe('-25,00')
  })

  test('with the currency in front', () => {
    expect(formatMoney(123456, 'EURO')).toBe('€ 1.234,56')
    expect(formatMoney(990, 'CHF')).toBe('CHF 9,90')
    expect(formatMoney(100, 'USD')).toBe('USD 1,00')
  })
})
