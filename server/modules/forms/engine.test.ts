// The form engine on its own: every type, operator and message.
import { describe, expect, test } from 'bun:test'
import { COUNTRIES, DEFAULT_COUNTRY, countryName, isCountryCode } from './countries'
import { type FieldDef, type FormContext, blankFieldDef, groupsAsTabs, operatorsFor, widthOf } from './definitions'
import { evaluate, missingFields, requiredMessage, submissionSchema } from './engine'
import { valueText } from './value-text'
import { ageOn, amountBound, isEmptyValue, parseGermanDate, toE164 } from './values'
import { visibleFieldIds } from './conditions'
import { defaultDefs } from './service'
import { installPhoneParser } from './values'
import { phoneToE164 } from './phone'

installPhoneParser(phoneToE164)

let seq = 100
function field(p: Partial<FieldDef> & Pick<FieldDef, 'type'>): FieldDef {
  const id = p.id ?? ++seq
  return blankFieldDef({ id, displayName: `Feld ${id}`, ...p })
}

const NOW = new Date('2026-11-22T10:00:00Z')
const ctx = (over: Partial<FormContext> = {}): FormContext => ({
  now: NOW,
  eventStart: '2026-12-10T18:00:00Z',
  defaultPhoneLocale: 'de',
  disabledCovidStates: [],
  maxVisitorPerSubscription: -1,
  vip: false,
  admin: false,
  ...over,
})
const base = { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: 'grete@example.org' }
const withBasics = (...fs: FieldDef[]) => [...defaultDefs(), ...fs]

/** errorType of one field key after evaluating one value (null = accepted). */
function verdict(f: FieldDef, value: unknown, c: Partial<FormContext> = {}) {
  const e = evaluate(withBasics(f), { ...base, fields: { [f.id]: value } }, ctx(c))
  const p = [...e.missing, ...e.invalid].find((x) => x.field === `fields.${f.id}`)
  return { error: p?.errorType ?? null, stored: e.data.fields[String(f.id)], params: p?.params }
}

describe('required messages per type', () => {
  const cases: Array<[Partial<FieldDef> & Pick<FieldDef, 'type'>, string]> = [
    [{ type: 'TEXT' }, 'REQUIRED'],
    [{ type: 'TEXTAREA' }, 'REQUIRED'],
    [{ type: 'NUMBER' }, 'NUMBER_REQUIRED'],
    [{ type: 'TIME' }, 'TIME_REQUIRED'],
    [{ type: 'DATE' }, 'DATE_REQUIRED'],
    [{ type: 'DATE_TIME' }, 'DATE_TIME_REQUIRED'],
    [{ type: 'YES_NO' }, 'REQUIRED'],
    [{ type: 'LIST', values: ['a'] }, 'CHOICE_REQUIRED'],
    [{ type: 'SMARTLIST', definedValues: [] }, 'CHOICE_REQUIRED'],
    [{ type: 'TIMESLOT' }, 'CHOICE_REQUIRED'],
    [{ type: 'IMAGE' }, 'IMAGE_REQUIRED'],
    [{ type: 'FILE' }, 'FILE_REQUIRED'],
    [{ type: 'ADDRESS' }, 'REQUIRED'],
    [{ type: 'COMPANY_ADDRESS' }, 'REQUIRED'],
    [{ type: 'COUNTRY' }, 'COUNTRY_REQUIRED'],
    [{ type: 'GENDER' }, 'GENDER_REQUIRED'],
    [{ type: 'DELEGATE_EMAIL' }, 'REQUIRED'],
    [{ type: 'COVID_STATE' }, 'COVID_STATE_REQUIRED'],
    [{ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'BIRTHDAY' }, 'DATE_REQUIRED'],
    [{ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER' }, 'REQUIRED'],
    [{ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'GENDER' }, 'GENDER_REQUIRED'],
  ]
  for (const [p, code] of cases) {
    test(`${p.defaultField ?? p.type} → ${code}`, () => {
      const f = field({ ...p, appearance: 'REQUIRED' })
      expect(requiredMessage(f)).toBe(code)
      expect(verdict(f, undefined).error).toBe(code)
      // VISIBLE (not REQUIRED) fields may stay empty
      expect(verdict({ ...f, appearance: 'VISIBLE' }, undefined).error).toBeNull()
    })
  }
  test('basic data has its own messages', () => {
    const e = evaluate(defaultDefs(), { fields: {} }, ctx())
    expect(e.missing.map((p) => [p.field, p.errorType])).toEqual([
      ['salutation', 'SALUTATION_REQUIRED'],
      ['firstName', 'FIRST_NAME_REQUIRED'],
      ['lastName', 'LAST_NAME_REQUIRED'],
      ['email', 'REQUIRED'],
    ])
    const titled = defaultDefs().map((f) => (f.defaultField === 'TITLE' ? { ...f, appearance: 'REQUIRED' as const } : f))
    expect(missingFields(titled, { ...base, fields: {} }, ctx()).map((p) => p.errorType)).toEqual(['TITLE_REQUIRED'])
  })
  test('missing fields are listed by id and displayName', () => {
    const f = field({ type: 'TEXT', appearance: 'REQUIRED', displayName: 'Firma' })
    expect(missingFields(withBasics(f), { ...base, fields: {} }, ctx())).toEqual([{ field: `fields.${f.id}`, fieldId: f.id, displayName: 'Firma', errorType: 'REQUIRED' }])
  })
  test('SEPARATOR and EXPLANATION hold no value and are never missing', () => {
    for (const type of ['SEPARATOR', 'EXPLANATION'] as const) expect(verdict(field({ type, appearance: 'REQUIRED' }), undefined).error).toBeNull()
  })
})

describe('values per type', () => {
  test('TEXT trims, TEXTAREA allows more, both bound the length', () => {
    expect(verdict(field({ type: 'TEXT' }), '  hallo ').stored).toBe('hallo')
    expect(verdict(field({ type: 'TEXT' }), 'x'.repeat(501)).error).toBe('TOO_LONG')
    expect(verdict(field({ type: 'TEXTAREA' }), 'x'.repeat(4000)).error).toBeNull()
    expect(verdict(field({ type: 'TEXT', appearance: 'REQUIRED' }), '   ').error).toBe('REQUIRED')
  })
  test('NUMBER: minimum 0, optional maximum, decimal comma', () => {
    const f = field({ type: 'NUMBER' })
    expect(verdict(f, 3).stored).toBe(3)
    expect(verdict(f, '2,5').stored).toBe(2.5)
    expect(verdict(f, 0).stored).toBe(0)
    expect(verdict(f, -1).error).toBe('NUMBER_MIN')
    expect(verdict(f, 'abc').error).toBe('INVALID_NUMBER')
    expect(verdict(field({ type: 'NUMBER', settings: { max: 5 } }), 6).error).toBe('TOO_BIG')
  })
  test('TIME is HH:mm', () => {
    const f = field({ type: 'TIME' })
    expect(verdict(f, '09:30').stored).toBe('09:30')
    expect(verdict(f, '24:00').error).toBe('INVALID_TIME')
    expect(verdict(f, '9.30').error).toBe('INVALID_TIME')
  })
  test('DATE: real dates in the picker range 1900–2040, DD.MM.YYYY accepted', () => {
    const f = field({ type: 'DATE' })
    expect(verdict(f, '2027-02-28').stored).toBe('2027-02-28')
    expect(verdict(f, '28.02.2027').stored).toBe('2027-02-28')
    expect(verdict(f, '2027-02-30').error).toBe('INVALID_DATE')
    expect(verdict(f, '1899-12-31').error).toBe('INVALID_DATE')
    expect(verdict(f, '2041-01-01').error).toBe('INVALID_DATE')
  })
  test('DATE birthday: 1899-01-01 to today, min and max age on the event date', () => {
    const f = field({ type: 'DATE', settings: { birthday: true, minAge: 18, maxAge: 30 } })
    expect(verdict(f, '10.12.2008').stored).toBe('2008-12-10') // 18 exactly on the event day
    expect(verdict(f, '11.12.2008').error).toBe('MIN_AGE')
    expect(verdict(f, '11.12.2008').params).toEqual({ n: 18 })
    expect(verdict(f, '10.12.1995').error).toBe('MAX_AGE') // 31 on the event day
    expect(verdict(f, '11.12.1995').stored).toBe('1995-12-11')
    const any = field({ type: 'DATE', settings: { birthday: true } })
    expect(verdict(any, '01.01.1899').stored).toBe('1899-01-01')
    expect(verdict(any, '31.12.1898').error).toBe('INVALID_DATE')
    expect(verdict(any, '23.11.2026').error).toBe('INVALID_DATE') // tomorrow
    expect(verdict(any, '31.02.2000').error).toBe('INVALID_DATE')
    expect(ageOn('2000-02-29', '2018-02-28')).toBe(17)
    expect(parseGermanDate('1.2.2003')).toBe('2003-02-01')
  })
  test('the BIRTHDAY default field is a birthday date', () => {
    expect(verdict(field({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'BIRTHDAY' }), '23.11.2026').error).toBe('INVALID_DATE')
  })
  test('DATE_TIME is a local date and time', () => {
    const f = field({ type: 'DATE_TIME' })
    expect(verdict(f, '2027-05-01T18:30').stored).toBe('2027-05-01T18:30')
    expect(verdict(f, '2027-05-01').error).toBe('INVALID_DATE')
  })
  test('YES_NO: an answer either way counts; required means answered', () => {
    const f = field({ type: 'YES_NO', appearance: 'REQUIRED' })
    expect(verdict(f, false).stored).toBe(false)
    expect(verdict(f, true).stored).toBe(true)
    expect(verdict(f, null).error).toBe('REQUIRED')
    expect(isEmptyValue('YES_NO', false)).toBe(false)
  })
  test('LIST: options only, single or multiple, own value', () => {
    const single = field({ type: 'LIST', values: ['Rot', 'Blau'] })
    expect(verdict(single, { selected: ['Rot'], custom: null }).stored).toEqual({ selected: ['Rot'], custom: null })
    expect(verdict(single, 'Blau').stored).toEqual({ selected: ['Blau'], custom: null })
    expect(verdict(single, { selected: ['Grün'], custom: null }).error).toBe('INVALID')
    expect(verdict(single, { selected: ['Rot', 'Blau'], custom: null }).error).toBe('INVALID')
    const multi = field({ type: 'LIST', values: ['Rot', 'Blau'], multiple: true, customValue: true })
    expect(verdict(multi, { selected: ['Rot', 'Blau'], custom: ' Lila ' }).stored).toEqual({ selected: ['Rot', 'Blau'], custom: 'Lila' })
    // own value chosen but empty: missing, even on an optional field
    expect(verdict(multi, { selected: [], custom: '' }).error).toBe('OWN_VALUE_REQUIRED')
    expect(verdict({ ...single, customValue: false }, { selected: [], custom: 'x' }).error).toBe('INVALID')
  })
  test('COUNTRY from the country table, spacer rows not selectable', () => {
    const f = field({ type: 'COUNTRY' })
    expect(verdict(f, 'AUT').stored).toBe('AUT')
    expect(verdict(f, 'spacer-1').error).toBe('INVALID')
    expect(verdict(f, 'XYZ').error).toBe('INVALID')
  })
  test('GENDER and COVID_STATE (minus the event\'s disabled states)', () => {
    expect(verdict(field({ type: 'GENDER' }), 'FEMALE').stored).toBe('FEMALE')
    expect(verdict(field({ type: 'GENDER' }), 'X').error).toBe('INVALID')
    const covid = field({ type: 'COVID_STATE' })
    expect(verdict(covid, 'TESTED').stored).toBe('TESTED')
    expect(verdict(covid, 'TESTED', { disabledCovidStates: ['TESTED'] }).error).toBe('INVALID')
  })
  test('DELEGATE_EMAIL and EMAIL are e-mail addresses', () => {
    expect(verdict(field({ type: 'DELEGATE_EMAIL' }), 'Chef@Example.org').stored).toBe('chef@example.org')
    expect(verdict(field({ type: 'DELEGATE_EMAIL' }), 'kein-mail').error).toBe('INVALID_EMAIL')
    const e = evaluate(defaultDefs(), { ...base, email: 'nope', fields: {} }, ctx())
    expect(e.invalid).toEqual([expect.objectContaining({ field: 'email', errorType: 'INVALID_EMAIL' })])
  })
  test('phone numbers become E.164 with the event\'s default region', () => {
    const f = field({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'MOBILE_PHONE_NUMBER' })
    expect(verdict(f, '0170 1234567').stored).toBe('+491701234567')
    expect(verdict(f, '+43 664 1234567').stored).toBe('+436641234567')
    expect(verdict(f, '0664 1234567', { defaultPhoneLocale: 'at' }).stored).toBe('+436641234567')
    expect(verdict(f, '12').error).toBe('INVALID_PHONE')
    expect(toE164('abc', 'de')).toBeNull()
  })
  test('ADDRESS needs street, postCode and city when required; country from the table', () => {
    const f = field({ type: 'ADDRESS', appearance: 'REQUIRED' })
    expect(verdict(f, { street: 'Hauptstr.', postCode: '10115', city: 'Berlin' }).stored).toEqual({ street: 'Hauptstr.', streetNumber: null, postCode: '10115', city: 'Berlin', country: null })
    expect(verdict(f, { street: 'Hauptstr.', city: 'Berlin' }).error).toBe('REQUIRED')
    expect(verdict(f, { street: 'a', postCode: '1', city: 'b', country: 'ZZZ' }).error).toBe('INVALID')
  })
  test('IMAGE and FILE hold an asset id', () => {
    expect(verdict(field({ type: 'IMAGE' }), { assetId: 7, fileName: 'a.jpg' }).stored).toEqual({ assetId: 7, fileName: 'a.jpg' })
    expect(verdict(field({ type: 'FILE' }), { assetId: -1 }).error).toBeNull() // -1 is "no file": empty, optional
    expect(verdict(field({ type: 'FILE', appearance: 'REQUIRED' }), { assetId: 0 }).error).toBe('FILE_REQUIRED')
  })
})

describe('SMARTLIST', () => {
  const dv = (id: number, over: Partial<FieldDef['definedValues'][number]> = {}) => ({ id, displayName: `Wert ${id}`, description: null, translations: [], group: null, freeValue: -1, capacity: -1, minPerGuest: 0, maxPerGuest: -1, sortOrder: id, ...over })
  test('freeValue 0 is out of stock; negative is unlimited', () => {
    const f = field({ type: 'SMARTLIST', definedValues: [dv(1, { freeValue: 0 }), dv(2, { freeValue: -1 }), dv(3, { freeValue: 2 })], multiple: true, amountSelection: true })
    expect(verdict(f, [{ fieldValueId: 1, amount: 1 }]).error).toBe('VALUE_UNAVAILABLE')
    expect(verdict(f, [{ fieldValueId: 2, amount: 9 }]).error).toBeNull()
    expect(verdict(f, [{ fieldValueId: 3, amount: 3 }]).error).toBe('VALUE_UNAVAILABLE')
    expect(verdict(f, [{ fieldValueId: 3, amount: 2 }]).stored).toEqual([{ fieldValueId: 3, amount: 2 }])
  })
  test('amounts: default bound 10 when unlimited, value and field maxPerGuest, minPerGuest', () => {
    const f = field({ type: 'SMARTLIST', multiple: true, amountSelection: true, definedValues: [dv(1), dv(2, { maxPerGuest: 3, minPerGuest: 2 })] })
    expect(verdict(f, [{ fieldValueId: 1, amount: 10 }]).error).toBeNull()
    expect(verdict(f, [{ fieldValueId: 1, amount: 11 }]).error).toBe('SELECTION_LIMIT')
    expect(verdict(f, [{ fieldValueId: 2, amount: 4 }]).params).toEqual({ n: 3 })
    expect(verdict(f, [{ fieldValueId: 2, amount: 1 }]).error).toBe('MIN_PER_GUEST')
    const limited = { ...f, maxPerGuest: 3 }
    expect(verdict(limited, [{ fieldValueId: 1, amount: 2 }, { fieldValueId: 2, amount: 2 }]).error).toBe('SELECTION_LIMIT')
    expect(amountBound(-1)).toBe(10)
    expect(amountBound(4)).toBe(4)
    expect(amountBound(-1, 2)).toBe(2)
    expect(amountBound(-1, -1, 3)).toBe(3)
  })
  test('single choice and no amount selection', () => {
    const f = field({ type: 'SMARTLIST', definedValues: [dv(1), dv(2)] })
    expect(verdict(f, [{ fieldValueId: 1 }, { fieldValueId: 2 }]).error).toBe('INVALID')
    expect(verdict(f, [{ fieldValueId: 1, amount: 2 }]).error).toBe('INVALID')
    expect(verdict(f, [{ fieldValueId: 99 }]).error).toBe('INVALID')
    expect(verdict(f, [{ fieldValueId: 2 }]).stored).toEqual([{ fieldValueId: 2, amount: 1 }])
  })
  test('defined groups show as tabs when there are 3 or fewer', () => {
    const g = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `g${i}`, displayName: `G${i}` }))
    expect(groupsAsTabs({ hasDefinedGroups: true, definedGroups: g(3), showDefinedGroupsAsTabs: false })).toBe(true)
    expect(groupsAsTabs({ hasDefinedGroups: true, definedGroups: g(4), showDefinedGroupsAsTabs: false })).toBe(false)
    expect(groupsAsTabs({ hasDefinedGroups: true, definedGroups: g(4), showDefinedGroupsAsTabs: true })).toBe(true)
    expect(groupsAsTabs({ hasDefinedGroups: false, definedGroups: g(2), showDefinedGroupsAsTabs: true })).toBe(false)
  })
})

describe('TIMESLOT', () => {
  const slot = (id: number) => ({ id, displayName: `${id}:00`, dateInfo: null, dateTimezoneInfo: null, freeSlots: 5, capacity: 5, groupId: null, sortOrder: id })
  test('every pick needs its reservation outside admin mode', () => {
    const f = field({ type: 'TIMESLOT', timeslots: [slot(10), slot(11)] })
    expect(verdict(f, [{ timeslotId: 10, amount: 1 }]).error).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    expect(verdict(f, [{ timeslotId: 10, amount: 1, reservationToken: 'tok' }]).stored).toEqual([{ timeslotId: 10, amount: 1, reservationToken: 'tok' }])
    expect(verdict(f, [{ timeslotId: 10, amount: 1 }], { admin: true }).stored).toEqual([{ timeslotId: 10, amount: 1 }])
  })
  test('single choice, unknown slots and maxPerGuest', () => {
    const f = field({ type: 'TIMESLOT', timeslots: [slot(10), slot(11)] })
    expect(verdict(f, [{ timeslotId: 10, reservationToken: 'a' }, { timeslotId: 11, reservationToken: 'b' }]).error).toBe('INVALID')
    expect(verdict(f, [{ timeslotId: 12, reservationToken: 'a' }]).error).toBe('INVALID')
    const multi = field({ type: 'TIMESLOT', multiple: true, maxPerGuest: 1, timeslots: [slot(10), slot(11)] })
    expect(verdict(multi, [{ timeslotId: 10, reservationToken: 'a' }, { timeslotId: 11, reservationToken: 'b' }]).error).toBe('SELECTION_LIMIT')
  })
})

describe('conditions', () => {
  const c = (fieldId: number | 'VIP', operator: any, value?: any) => ({ fieldId, operator, value })
  function shown(src: FieldDef, srcValue: any, cond: ReturnType<typeof c>, extra: Partial<FormContext> = {}) {
    const dep = field({ type: 'TEXT', conditions: [cond] })
    return visibleFieldIds([src, dep], { fields: { [src.id]: srcValue }, escortPersons: [] }, ctx(extra)).has(dep.id)
  }
  test('text-like: EQUALS, NOT_EQUALS, IS_EMPTY, IS_NOT_EMPTY', () => {
    const t = field({ type: 'TEXT' })
    expect(shown(t, 'Ja', c(t.id, 'EQUALS', 'ja'))).toBe(true)
    expect(shown(t, 'Nein', c(t.id, 'EQUALS', 'ja'))).toBe(false)
    expect(shown(t, 'Nein', c(t.id, 'NOT_EQUALS', 'ja'))).toBe(true)
    expect(shown(t, '', c(t.id, 'NOT_EQUALS', 'ja'))).toBe(true)
    expect(shown(t, '', c(t.id, 'IS_EMPTY'))).toBe(true)
    expect(shown(t, 'x', c(t.id, 'IS_EMPTY'))).toBe(false)
    expect(shown(t, 'x', c(t.id, 'IS_NOT_EMPTY'))).toBe(true)
    expect(operatorsFor(t)).toEqual(['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'IS_NOT_EMPTY'])
  })
  test('NUMBER adds GREATER_THEN, GREATER_OR_EQUAL, LESS_THEN, LESS_OR_EQUAL', () => {
    const n = field({ type: 'NUMBER' })
    expect(operatorsFor(n)).toContain('GREATER_THEN')
    expect(shown(n, 5, c(n.id, 'GREATER_THEN', 4))).toBe(true)
    expect(shown(n, 4, c(n.id, 'GREATER_THEN', 4))).toBe(false)
    expect(shown(n, 4, c(n.id, 'GREATER_OR_EQUAL', 4))).toBe(true)
    expect(shown(n, 3, c(n.id, 'LESS_THEN', 4))).toBe(true)
    expect(shown(n, 4, c(n.id, 'LESS_THEN', 4))).toBe(false)
    expect(shown(n, 4, c(n.id, 'LESS_OR_EQUAL', 4))).toBe(true)
    expect(shown(n, '', c(n.id, 'LESS_OR_EQUAL', 4))).toBe(false)
    expect(shown(n, 4, c(n.id, 'EQUALS', '4'))).toBe(true)
  })
  test('YES_NO uses IS_TRUE and IS_FALSE', () => {
    const y = field({ type: 'YES_NO' })
    expect(operatorsFor(y)).toEqual(['IS_TRUE', 'IS_FALSE'])
    expect(shown(y, true, c(y.id, 'IS_TRUE'))).toBe(true)
    expect(shown(y, false, c(y.id, 'IS_TRUE'))).toBe(false)
    expect(shown(y, false, c(y.id, 'IS_FALSE'))).toBe(true)
    expect(shown(y, undefined, c(y.id, 'IS_FALSE'))).toBe(true)
  })
  test('TIMESLOT uses EQUALS, NOT_EQUALS, IS_EMPTY, IS_NOT_EMPTY on the slot id', () => {
    const s = field({ type: 'TIMESLOT', timeslots: [] })
    expect(operatorsFor(s)).toEqual(['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'IS_NOT_EMPTY'])
    expect(shown(s, [{ timeslotId: 7, amount: 1 }], c(s.id, 'EQUALS', 7))).toBe(true)
    expect(shown(s, [{ timeslotId: 8, amount: 1 }], c(s.id, 'EQUALS', 7))).toBe(false)
    expect(shown(s, [{ timeslotId: 8, amount: 1 }], c(s.id, 'NOT_EQUALS', 7))).toBe(true)
    expect(shown(s, [], c(s.id, 'IS_EMPTY'))).toBe(true)
    expect(shown(s, [{ timeslotId: 8, amount: 1 }], c(s.id, 'IS_NOT_EMPTY'))).toBe(true)
  })
  test('LIST and SMARTLIST compare the chosen values', () => {
    const l = field({ type: 'LIST', values: ['a', 'b'], multiple: true })
    expect(shown(l, { selected: ['a', 'b'], custom: null }, c(l.id, 'EQUALS', 'b'))).toBe(true)
    const s = field({ type: 'SMARTLIST' })
    expect(shown(s, [{ fieldValueId: 3, amount: 1 }], c(s.id, 'EQUALS', '3'))).toBe(true)
  })
  test('the VIP pseudo-field uses IS_TRUE and its negation', () => {
    const t = field({ type: 'TEXT' })
    expect(operatorsFor('VIP')).toEqual(['IS_TRUE', 'IS_FALSE'])
    expect(shown(t, '', c('VIP', 'IS_TRUE'), { vip: true })).toBe(true)
    expect(shown(t, '', c('VIP', 'IS_TRUE'), { vip: false })).toBe(false)
    expect(shown(t, '', c('VIP', 'IS_FALSE'), { vip: false })).toBe(true)
  })
  test('all conditions must hold; a hidden source counts as empty', () => {
    const a = field({ type: 'YES_NO' })
    const b = field({ type: 'TEXT', appearance: 'HIDDEN' })
    const dep = field({ type: 'TEXT', conditions: [c(a.id, 'IS_TRUE'), c(b.id, 'IS_EMPTY')] })
    expect(visibleFieldIds([a, b, dep], { fields: { [a.id]: true, [b.id]: 'x' }, escortPersons: [] }, ctx()).has(dep.id)).toBe(true)
    expect(visibleFieldIds([a, b, dep], { fields: { [a.id]: false }, escortPersons: [] }, ctx()).has(dep.id)).toBe(false)
  })
  test('chains settle over passes (up to 4)', () => {
    const a = field({ type: 'YES_NO' })
    const b = field({ type: 'TEXT', conditions: [c(a.id, 'IS_TRUE')] })
    const d = field({ type: 'TEXT', conditions: [c(b.id, 'IS_NOT_EMPTY')] })
    const e = field({ type: 'TEXT', conditions: [c(d.id, 'IS_NOT_EMPTY')] })
    const defs = [a, b, d, e]
    // b has a value but a is not "yes": b hides, so d and e hide too (takes three passes)
    const v = visibleFieldIds(defs, { fields: { [a.id]: false, [b.id]: 'x', [d.id]: 'y' }, escortPersons: [] }, ctx())
    expect([...v]).toEqual([a.id])
    const all = visibleFieldIds(defs, { fields: { [a.id]: true, [b.id]: 'x', [d.id]: 'y' }, escortPersons: [] }, ctx())
    expect([...all]).toEqual([a.id, b.id, d.id, e.id])
  })
  test('fields whose conditions do not match are not validated and not stored', () => {
    const a = field({ type: 'YES_NO' })
    const dep = field({ type: 'TEXT', appearance: 'REQUIRED', conditions: [c(a.id, 'IS_TRUE')] })
    const hidden = evaluate(withBasics(a, dep), { ...base, fields: { [a.id]: false, [dep.id]: 'stale' } }, ctx())
    expect(hidden.missing).toEqual([])
    expect(hidden.data.fields[String(dep.id)]).toBeUndefined()
    const shownNow = evaluate(withBasics(a, dep), { ...base, fields: { [a.id]: true } }, ctx())
    expect(shownNow.missing.map((p) => p.fieldId)).toEqual([dep.id])
  })
  test('a condition on a field that no longer exists does not restrict', () => {
    const dep = field({ type: 'TEXT', conditions: [c(99999, 'IS_TRUE')] })
    expect(visibleFieldIds([dep], { fields: {}, escortPersons: [] }, ctx()).has(dep.id)).toBe(true)
  })
})

describe('escort persons', () => {
  const withEscort = (code: string, appearance: FieldDef['appearance']) => defaultDefs().map((f) => (f.defaultField === code ? { ...f, appearance } : f))
  test('first and last name required while ESCORT_NAME is shown', () => {
    const e = evaluate(defaultDefs(), { ...base, fields: {}, escortPersons: [{ firstName: 'Eva' }] }, ctx())
    expect(e.missing).toEqual([expect.objectContaining({ field: 'escortPersons.0.lastName', errorType: 'ESCORT_LAST_NAME_REQUIRED' })])
    const noNames = evaluate(withEscort('ESCORT_NAME', 'HIDDEN'), { ...base, fields: {}, escortPersons: [{}] }, ctx())
    expect(noNames.missing).toEqual([])
  })
  test('properties follow their ESCORT_* appearance; hidden ones are dropped', () => {
    const defs = withEscort('ESCORT_EMAIL', 'REQUIRED')
    const e = evaluate(defs, { ...base, fields: {}, escortPersons: [{ firstName: 'Eva', lastName: 'E', company: 'ACME' }] }, ctx())
    expect(e.missing.map((p) => p.field)).toEqual(['escortPersons.0.email'])
    expect(e.data.escortPersons[0].company).toBeUndefined()
    const bad = evaluate(defs, { ...base, fields: {}, escortPersons: [{ firstName: 'Eva', lastName: 'E', email: 'x' }] }, ctx())
    expect(bad.invalid.map((p) => p.errorType)).toEqual(['INVALID_EMAIL'])
    const phone = evaluate(withEscort('ESCORT_PHONE_NUMBER', 'VISIBLE'), { ...base, fields: {}, escortPersons: [{ firstName: 'E', lastName: 'E', phoneNumber: '030 1234567' }] }, ctx())
    expect(phone.data.escortPersons[0].phoneNumber).toBe('+49301234567')
  })
  test('the escort address is required by ESCORT_ADDRESS (not ESCORT_INFO)', () => {
    const byInfo = evaluate(withEscort('ESCORT_INFO', 'REQUIRED'), { ...base, fields: {}, escortPersons: [{ firstName: 'E', lastName: 'E', info: 'x' }] }, ctx())
    expect(byInfo.missing).toEqual([])
    const byAddress = evaluate(withEscort('ESCORT_ADDRESS', 'REQUIRED'), { ...base, fields: {}, escortPersons: [{ firstName: 'E', lastName: 'E', address: { street: 'a' } }] }, ctx())
    expect(byAddress.missing.map((p) => p.field)).toEqual(['escortPersons.0.address'])
  })
  test('escort birthday and covid state', () => {
    const defs = withEscort('ESCORT_BIRTHDAY', 'VISIBLE').map((f) => (f.defaultField === 'ESCORT_COVID_STATE' ? { ...f, appearance: 'VISIBLE' as const } : f))
    const e = evaluate(defs, { ...base, fields: {}, escortPersons: [{ firstName: 'E', lastName: 'E', birthday: '31.02.2000', covidState: 'RECOVERED' }] }, ctx({ disabledCovidStates: ['RECOVERED'] }))
    expect(e.invalid.map((p) => p.errorType)).toEqual(['INVALID_DATE', 'INVALID'])
  })
})

describe('the submission schema and helpers', () => {
  test('zod issues carry the field keys and codes; admin mode tolerates missing fields', () => {
    const f = field({ type: 'TEXT', appearance: 'REQUIRED' })
    const n = field({ type: 'NUMBER' })
    const defs = withBasics(f, n)
    const r = submissionSchema(defs, ctx()).safeParse({ ...base, fields: { [n.id]: -2 }, escortPersons: [{ firstName: 'A' }] })
    expect(r.success).toBe(false)
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [`fields.${f.id}`, 'REQUIRED'],
      ['escortPersons.0.lastName', 'ESCORT_LAST_NAME_REQUIRED'],
      [`fields.${n.id}`, 'NUMBER_MIN'],
    ])
    const admin = submissionSchema(defs, ctx({ admin: true })).safeParse({ ...base, fields: { [n.id]: 2 } })
    expect(admin.success).toBe(true)
    expect(submissionSchema(defs, ctx()).safeParse({ ...base, fields: 'nope' }).success).toBe(false)
  })
  test('field widths: FULL, the wide types, otherwise half', () => {
    for (const type of ['SEPARATOR', 'COVID_STATE', 'SMARTLIST', 'TEXTAREA', 'ADDRESS', 'TIMESLOT', 'EXPLANATION'] as const) expect(widthOf(field({ type }))).toBe('full')
    expect(widthOf(field({ type: 'TEXT' }))).toBe('half')
    expect(widthOf(field({ type: 'TEXT', size: 'FULL' }))).toBe('full')
    expect(widthOf(field({ type: 'TEXTAREA', size: 'HALF' }))).toBe('half')
    expect(widthOf(field({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'INFO' }))).toBe('full')
  })
  test('readable values', () => {
    expect(valueText(field({ type: 'COUNTRY' }), 'AUT')).toBe('Österreich')
    expect(valueText(field({ type: 'YES_NO' }), true)).toBe('Ja')
    expect(valueText(field({ type: 'DATE' }), '2027-01-02')).toBe('02.01.2027')
    expect(valueText(field({ type: 'LIST', values: ['a'] }), { selected: ['a'], custom: 'b' })).toBe('a, b')
    expect(valueText(field({ type: 'ADDRESS' }), { street: 'Hauptstr.', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' })).toBe('Hauptstr. 1, 10115 Berlin, Deutschland')
  })
  test('the country table: groups with spacer rows, DACH first, ~250 countries, DEU default', () => {
    const real = COUNTRIES.filter((c) => !c.spacer)
    expect(real.length).toBeGreaterThan(240)
    expect(COUNTRIES.slice(0, 4).map((c) => c.code)).toEqual(['spacer-1', 'DEU', 'AUT', 'CHE'])
    expect(COUNTRIES.filter((c) => c.spacer).map((c) => c.name)).toEqual(['Europa (DACH)', 'Europa', 'Afrika', 'Nordamerika', 'Nord- und Südamerika', 'Asien', 'Australien/Ozeanien'])
    expect(new Set(real.map((c) => c.code)).size).toBe(real.length)
    expect(DEFAULT_COUNTRY).toBe('DEU')
    expect(isCountryCode('XKX')).toBe(true)
    expect(countryName('CHE', 'en')).toBe('Switzerland')
  })
})
