// Input limits read from the zod schemas the server validates with, so an input carries the
// maxlength of its field (a too-long value is stopped while typing, not answered with an error
// after sending). Whatever max a schema has is used; a field without one gets no maxlength.

type Node = { _zod?: { def?: Record<string, any> } } | undefined

const def = (s: Node) => s?._zod?.def

/** The schema below optional/nullable/default/pipe/transform wrappers. */
function unwrap(s: Node): Node {
  for (let i = 0; s && i < 20; i++) {
    const d = def(s)
    const inner = d?.innerType ?? (d?.type === 'pipe' ? d.in : undefined)
    if (!inner) return s
    s = inner
  }
  return s
}

/** The maximum length of a string schema (through its wrappers), if it has one. */
export function maxLengthOf(schema: unknown): number | undefined {
  const s = unwrap(schema as Node)
  if (def(s)?.type !== 'string') return undefined
  let max: number | undefined
  for (const c of (def(s)?.checks ?? []) as Array<{ _zod?: { def?: { check?: string; maximum?: number; length?: number } } }>) {
    const cd = c._zod?.def
    const m = cd?.check === 'max_length' ? cd.maximum : cd?.check === 'length_equals' ? cd.length : undefined
    if (typeof m === 'number') max = max === undefined ? m : Math.min(max, m)
  }
  return max
}

/** Field name → maximum length of an object schema's string fields (dots for nested objects). */
export function maxLengths(schema: unknown, prefix = ''): Record<string, number> {
  const out: Record<string, number> = {}
  const shape = def(unwrap(schema as Node))?.shape as Record<string, unknown> | undefined
  if (!shape) return out
  for (const [k, v] of Object.entries(shape)) {
    const m = maxLengthOf(v)
    if (m !== undefined) out[prefix + k] = m
    else Object.assign(out, maxLengths(v, `${prefix}${k}.`))
  }
  return out
}

/**
 * react-hook-form's register with the schema's maxlength added: `{...reg}` on an input then carries
 * it (TextField spreads the registration onto its input).
 */
export function registerWithLimits<R extends (name: any, ...rest: any[]) => object>(register: R, schema: unknown): R {
  const limits = maxLengths(schema)
  return ((name: string, ...rest: any[]) => {
    const r = register(name, ...rest)
    return limits[name] !== undefined ? { ...r, maxLength: limits[name] } : r
  }) as R
}
