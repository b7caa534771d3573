// The form engine's conditions (engine.ts): which fields a guest sees, given the values so far and
// whether they are a VIP. Pure TypeScript: no server imports, the browser runs it too.
import { type Condition, type FieldDef, type FieldKind, type FormContext, VIP_SOURCE, type VisitorData, kindOf } from './definitions'
import { isRecord, str, isFormField, rawValue, asList, asSelections, asSlots, isEmptyValue } from './values'

/** Condition passes: values settle after at most this many re-evaluations. */
export const MAX_CONDITION_PASSES = 4

// ---------------------------------------------------------------------------------------------
// conditions

function equalsValue(kind: FieldKind, v: unknown, expected: unknown): boolean {
  const e = expected == null ? '' : String(expected).trim()
  switch (kind) {
    case 'LIST': {
      const l = asList(v)
      return l.selected.includes(e) || (l.custom !== null && l.custom.trim() === e)
    }
    case 'SMARTLIST':
      return asSelections(v).some((s) => String(s.fieldValueId) === e && s.amount > 0)
    case 'TIMESLOT':
      return asSlots(v).some((s) => String(s.timeslotId) === e && s.amount > 0)
    case 'NUMBER':
      return str(v) !== '' && e !== '' && Number(v) === Number(e)
    case 'YES_NO':
      return String(v === true) === e
    case 'ADDRESS':
    case 'COMPANY_ADDRESS':
      return isRecord(v) && [v.city, v.postCode, v.country].some((x) => str(x).toLowerCase() === e.toLowerCase())
    default:
      return str(v).toLowerCase() === e.toLowerCase()
  }
}

/** One condition against the current values; `visible` decides which fields count as filled. */
export function conditionMatches(c: Condition, byId: Map<number, FieldDef>, data: VisitorData, visible: Set<number>, ctx: Pick<FormContext, 'vip'>): boolean {
  if (c.fieldId === VIP_SOURCE) {
    if (c.operator === 'IS_TRUE') return ctx.vip
    if (c.operator === 'IS_FALSE') return !ctx.vip
    return true
  }
  const src = byId.get(Number(c.fieldId))
  // A condition on a field that no longer exists does not restrict anything.
  if (!src) return true
  const kind = kindOf(src)
  // A field that is not shown counts as empty for the fields that depend on it.
  const v = visible.has(src.id) ? rawValue(src, data) : undefined
  const empty = isEmptyValue(kind, v)
  switch (c.operator) {
    case 'IS_EMPTY':
      return empty
    case 'IS_NOT_EMPTY':
      return !empty
    case 'EQUALS':
      return !empty && equalsValue(kind, v, c.value)
    case 'NOT_EQUALS':
      return empty || !equalsValue(kind, v, c.value)
    case 'IS_TRUE':
      return v === true
    case 'IS_FALSE':
      return v !== true
    case 'GREATER_THEN':
    case 'GREATER_OR_EQUAL':
    case 'LESS_THEN':
    case 'LESS_OR_EQUAL': {
      if (empty || c.value === null || c.value === undefined || c.value === '') return false
      const a = Number(v)
      const b = Number(c.value)
      if (Number.isNaN(a) || Number.isNaN(b)) return false
      if (c.operator === 'GREATER_THEN') return a > b
      if (c.operator === 'GREATER_OR_EQUAL') return a >= b
      if (c.operator === 'LESS_THEN') return a < b
      return a <= b
    }
    default:
      return true
  }
}

/**
 * The fields shown for these values. Conditions of one field may read fields that are themselves
 * conditional, so visibility is re-evaluated until nothing changes, at most 4 passes
 * (guest-side.md 4). All conditions of a field must hold.
 */
export function visibleFieldIds(defs: readonly FieldDef[], data: VisitorData, ctx: Pick<FormContext, 'vip' | 'admin'>): Set<number> {
  const byId = new Map(defs.map((f) => [f.id, f]))
  const candidates = defs.filter((f) => f.appearance !== 'HIDDEN' && isFormField(f, ctx.admin))
  let visible = new Set(candidates.map((f) => f.id))
  for (let pass = 0; pass < MAX_CONDITION_PASSES; pass++) {
    const next = new Set<number>()
    for (const f of candidates) if (f.conditions.every((c) => conditionMatches(c, byId, data, visible, ctx))) next.add(f.id)
    const same = next.size === visible.size && [...next].every((id) => visible.has(id))
    visible = next
    if (same) break
  }
  return visible
}
