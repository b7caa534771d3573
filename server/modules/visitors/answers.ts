// The answers to the organiser's own questions (issue 10, item 4): which fields carry answers, each
// answer as the guest saw it (option labels, dates DD.MM.YYYY, catalogue texts for gender and covid
// state), for the guest detail, the CSV export and the event statistics.
import type { Db } from '../../db/database'
import { fromJson } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { type FieldDef, kindOf, labelOf } from '../forms/definitions'
import { valueText } from '../forms/value-text'
import { asList, asSelections, asSlots } from '../forms/values'

/** Kinds that show nothing a guest answered, or whose answer is a column of the registration itself. */
const NO_ANSWER = new Set(['SEPARATOR', 'EXPLANATION', 'ESCORT', 'SALUTATION', 'VIP'])
/** Default fields the export and the detail already show as columns of their own. */
const OWN_COLUMN = new Set(['TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL', 'SALUTATION', 'COMPANY', 'POSITION', 'PHONE_NUMBER', 'VIP'])

/** The fields whose answers the organiser reads, in the form's order. */
export function answerFields(defs: FieldDef[]): FieldDef[] {
  return defs.filter((f) => f.id > 0 && !NO_ANSWER.has(kindOf(f)) && !(f.defaultField && OWN_COLUMN.has(f.defaultField))).sort((a, b) => a.sortOrder - b.sortOrder)
}

/** One answer as readable text in the language. */
export function answerText(f: FieldDef, v: unknown, lang = 'de'): string {
  if (v === null || v === undefined || v === '') return ''
  const kind = kindOf(f)
  if (kind === 'GENDER') return t(lang, `gender.${String(v)}`)
  if (kind === 'COVID_STATE') return t(lang, `covidState.${String(v)}`)
  if (kind === 'LIST') {
    const l = asList(v)
    return [...l.selected, ...(l.custom ? [l.custom] : [])].join(', ')
  }
  return valueText(f, v, lang)
}

/** Stored answers of registrations: visitor id → field id → value. */
export async function answersOf(db: Db, visitorIds: number[]): Promise<Map<number, Map<number, unknown>>> {
  const out = new Map<number, Map<number, unknown>>()
  if (!visitorIds.length) return out
  const rows = await db.selectFrom('visitor_field_value').select(['visitor_id', 'field_id', 'value']).where('visitor_id', 'in', visitorIds).execute()
  for (const r of rows) {
    let m = out.get(r.visitor_id)
    if (!m) out.set(r.visitor_id, (m = new Map()))
    m.set(r.field_id, fromJson<unknown>(r.value, null))
  }
  return out
}

export interface AnswerDto {
  fieldId: number
  label: string
  type: string
  value: string
}

/** The guest detail's answers: every answer field that holds a value. */
export function answerList(defs: FieldDef[], values: Map<number, unknown> | undefined, lang = 'de'): AnswerDto[] {
  if (!values) return []
  return answerFields(defs)
    .map((f) => ({ fieldId: f.id, label: labelOf(f, lang), type: kindOf(f), value: answerText(f, values.get(f.id), lang) }))
    .filter((a) => a.value !== '')
}

export interface OptionCount {
  /** the option as the guest saw it */
  label: string
  /** registrations that chose it */
  registrations: number
  /** places / persons it stands for (amounts of a defined value or timeslot, escorts included) */
  persons: number
}
export interface AnswerCount {
  fieldId: number
  label: string
  type: string
  options: OptionCount[]
}

const CHOICE_KINDS = new Set(['LIST', 'SMARTLIST', 'TIMESLOT', 'YES_NO', 'GENDER', 'COVID_STATE', 'COUNTRY'])

/**
 * Counts per answer of the choice fields. `registrations` counts the registrations that chose an
 * option; `persons` the places it stands for: a defined value's or a timeslot's amount, and for the
 * covid state the escorts' own answers (ESCORT_COVID_STATE) added to the main guest's.
 */
export function countAnswers(defs: FieldDef[], regs: Array<{ values: Map<number, unknown> | undefined; escortCovid: Array<string | null> }>, lang = 'de'): AnswerCount[] {
  const out: AnswerCount[] = []
  const escortCovidAsked = defs.some((f) => f.defaultField === 'ESCORT_COVID_STATE' && f.appearance !== 'HIDDEN')
  for (const f of answerFields(defs)) {
    const kind = kindOf(f)
    if (!CHOICE_KINDS.has(kind)) continue
    const counts = new Map<string, OptionCount>()
    const bump = (key: string, label: string, persons: number, newReg: boolean) => {
      const c = counts.get(key) ?? { label, registrations: 0, persons: 0 }
      if (newReg) c.registrations++
      c.persons += persons
      counts.set(key, c)
    }
    // every option is listed, also with 0
    if (kind === 'LIST') for (const o of f.values) bump(`l:${o}`, o, 0, false)
    if (kind === 'SMARTLIST') for (const d of f.definedValues) bump(`d:${d.id}`, labelOf(d, lang), 0, false)
    if (kind === 'TIMESLOT') for (const s of f.timeslots) bump(`t:${s.id}`, [s.displayName, s.dateInfo].filter(Boolean).join(' '), 0, false)
    if (kind === 'YES_NO') {
      bump('b:true', answerText(f, true, lang), 0, false)
      bump('b:false', answerText(f, false, lang), 0, false)
    }
    if (kind === 'GENDER') for (const g of ['MALE', 'FEMALE', 'OTHER']) bump(`s:${g}`, t(lang, `gender.${g}`), 0, false)
    for (const r of regs) {
      const v = r.values?.get(f.id)
      if (kind === 'LIST') {
        const l = asList(v)
        for (const o of l.selected) bump(`l:${o}`, o, 1, true)
        if (l.custom) bump(`l:${l.custom}`, l.custom, 1, true)
      } else if (kind === 'SMARTLIST') {
        for (const s of asSelections(v)) {
          const d = f.definedValues.find((x) => x.id === s.fieldValueId)
          if (d) bump(`d:${d.id}`, labelOf(d, lang), s.amount, true)
        }
      } else if (kind === 'TIMESLOT') {
        for (const s of asSlots(v)) {
          const x = f.timeslots.find((y) => y.id === s.timeslotId)
          if (x) bump(`t:${x.id}`, [x.displayName, x.dateInfo].filter(Boolean).join(' '), s.amount, true)
        }
      } else if (kind === 'YES_NO') {
        if (typeof v === 'boolean') bump(`b:${v}`, answerText(f, v, lang), 1, true)
      } else if (kind === 'COVID_STATE') {
        const seen = new Set<string>()
        const add = (x: unknown) => {
          if (typeof x !== 'string' || !x) return
          bump(`s:${x}`, answerText(f, x, lang), 1, !seen.has(x))
          seen.add(x)
        }
        add(v)
        if (escortCovidAsked) for (const e of r.escortCovid) add(e)
      } else if (v !== null && v !== undefined && v !== '') {
        bump(`s:${String(v)}`, answerText(f, v, lang), 1, true)
      }
    }
    out.push({ fieldId: f.id, label: labelOf(f, lang), type: kind, options: [...counts.values()] })
  }
  return out
}
