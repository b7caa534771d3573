// A stored form value as readable text (guest list, exports, confirmation mail): server only. Apart
// from the engine (./engine.ts) because it names countries, and the country table (./countries.ts)
// is loaded by the public page only for forms with a country or address field (issue 25).
import { countryName } from './countries'
import { type FieldDef, kindOf, labelOf } from './definitions'
import { asList, asSelections, asSlots, formatGermanDate, isRecord, str } from './values'

/** A stored value as readable text (guest list, exports, confirmation mail). */
export function valueText(f: FieldDef, v: unknown, language = 'de'): string {
  if (v === null || v === undefined) return ''
  const yes = language.startsWith('de') ? 'Ja' : 'Yes'
  const no = language.startsWith('de') ? 'Nein' : 'No'
  switch (kindOf(f)) {
    case 'YES_NO':
    case 'VIP':
      return v === true ? yes : no
    case 'LIST': {
      const l = asList(v)
      return [...l.selected, ...(l.custom ? [l.custom] : [])].join(', ')
    }
    case 'SMARTLIST':
      return asSelections(v)
        .map((s) => {
          const d = f.definedValues.find((x) => x.id === s.fieldValueId)
          const name = d ? labelOf(d, language) : String(s.fieldValueId)
          return f.amountSelection ? `${s.amount} × ${name}` : name
        })
        .join(', ')
    case 'TIMESLOT':
      return asSlots(v)
        .map((s) => {
          const t = f.timeslots.find((x) => x.id === s.timeslotId)
          const name = t ? [t.displayName, t.dateInfo].filter(Boolean).join(' ') : String(s.timeslotId)
          return f.amountSelection ? `${s.amount} × ${name}` : name
        })
        .join(', ')
    case 'IMAGE':
    case 'FILE':
      return isRecord(v) ? String(v.fileName ?? v.assetId ?? '') : ''
    case 'ADDRESS':
    case 'COMPANY_ADDRESS': {
      if (!isRecord(v)) return ''
      const line1 = [str(v.street), str(v.streetNumber)].filter(Boolean).join(' ')
      const line2 = [str(v.postCode), str(v.city)].filter(Boolean).join(' ')
      return [line1, line2, v.country ? countryName(String(v.country), language) : ''].filter(Boolean).join(', ')
    }
    case 'COUNTRY':
      return countryName(String(v), language)
    case 'DATE':
      return formatGermanDate(String(v))
    case 'DATE_TIME': {
      const s = String(v)
      return `${formatGermanDate(s.slice(0, 10))}, ${s.slice(11, 16)}`
    }
    case 'NUMBER':
      return String(v).replace('.', ',')
    default:
      return String(v)
  }
}
