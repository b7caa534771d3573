// Wording of counts and forms of address (issue 20, item 30): counts go through the catalogue's
// plural form ("1 Platz ausgewählt", "1 Ticket · 18,00 €"), never "Person(en)"; the formal German
// catalogue never says "du".
import { describe, expect, test } from 'bun:test'
import { catalogues, t } from './catalogue'

describe('wording', () => {
  test('counts use plural forms', () => {
    expect(t('de', 'seating.selection', { n: 1 })).toBe('1 Platz ausgewählt')
    expect(t('de', 'seating.selection', { n: 3 })).toBe('3 Plätze ausgewählt')
    expect(t('en', 'seating.selection', { n: 1 })).toBe('1 seat selected')
    expect(t('en', 'seating.selection', { n: 2 })).toBe('2 seats selected')
    expect(t('de', 'ticketing.stats.value', { tickets: 1, gross: '18,00 €' })).toBe('1 Ticket · 18,00 €')
    expect(t('de', 'ticketing.stats.value', { tickets: 4, gross: '72,00 €' })).toBe('4 Tickets · 72,00 €')
    expect(t('en', 'ticketing.stats.value', { tickets: 1, gross: '18,00 €' })).toBe('1 ticket · 18,00 €')
    expect(t('de', 'selfCheckin.done.in', { n: 1 })).toBe('1 Person eingecheckt.')
    expect(t('de', 'selfCheckin.done.out', { n: 2 })).toBe('2 Personen ausgecheckt.')
    expect(t('en', 'selfCheckin.done.in', { n: 1 })).toBe('1 person checked in.')
    expect(t('de', 'errors.TOO_MANY_PERSONS', { max: 1 })).toBe('Pro Anmeldung ist höchstens 1 Person erlaubt.')
    expect(t('de', 'errors.TOO_MANY_PERSONS', { max: 3 })).toBe('Pro Anmeldung sind höchstens 3 Personen erlaubt.')
    expect(t('de', 'events.placesUnlimited', { taken: 1 })).toBe('1 Person angemeldet')
    expect(t('de', 'field.ABOVE_MAX_PER_ORDER', { max: 1 })).toBe('Höchstens 1 Ticket dieser Kategorie pro Bestellung.')
    expect(t('de', 'selfCheckin.counts', { in: 0, total: 1, out: 0 })).toBe('0 von 1 Person eingecheckt, 0 ausgecheckt')
    expect(t('de', 'selfCheckin.counts', { in: 1, total: 2, out: 0 })).toBe('1 von 2 Personen eingecheckt, 0 ausgecheckt')
  })

  test('no "Person(en)", "Plätze" after a count of one, or "(s)" in any catalogue', () => {
    for (const [lang, cat] of Object.entries(catalogues)) {
      for (const [k, v] of Object.entries(cat)) {
        expect({ lang, k, bad: /\w\((en|e|s|n)\)/.test(v) }).toEqual({ lang, k, bad: false })
      }
    }
  })

  test('the formal German catalogue says "Sie", the du catalogue "du"', () => {
    expect(t('de', 'help.feedback.success')).toBe('Vielen Dank, Ihr Feedback wurde übermittelt.')
    expect(t('de-du', 'help.feedback.success')).toBe('Vielen Dank, dein Feedback wurde übermittelt.')
    const du = /\b(du|dein|deine|deinen|deinem|deiner|deines|dich|dir)\b/i
    for (const [k, v] of Object.entries(catalogues.de)) expect({ k, du: du.test(v) }).toEqual({ k, du: false })
  })
})
