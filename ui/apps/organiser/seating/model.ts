// The seat-plan editor's model (docs/seating.md): the plan as the editor holds it (keys for chairs
// and categories not saved yet), the geometry of its tools (rows, arcs, numbering, alignment) and the
// conversion from and to the server's PUT …/seatingplan.

export interface EChair {
  uid: string
  id?: number
  label: string
  priceCategory: string | null
  viewType: 'CIRCLE' | 'RECTANGLE'
  percentX: number
  percentY: number
  percentWidth: number
  percentHeight: number
  options: Array<'LOVE_CHAIR' | 'DISABLED_CHAIR'>
  status: 'BLOCKED' | null
  places: number
  minAmount: number
  maxAmount: number
  freeChairs?: number
}
export interface ECategory {
  key: string
  id?: number
  displayName: string
  color: string
  /** the ticket category its chairs are sold as (paid events); null: not linked */
  ticketCategoryId: number | null
}
export interface EArea {
  key: string
  id?: number
  displayName: string
  width: number
  height: number
  areaImage: number | null
  chairs: EChair[]
}
export interface EPlan {
  priceCategories: ECategory[]
  areas: EArea[]
}

let seq = 0
export const uid = () => `n${Date.now().toString(36)}${(++seq).toString(36)}`
export const round = (n: number) => Math.round(n * 100) / 100
export const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))
export const SNAP = 0.5
export const snap = (n: number, on: boolean) => (on ? Math.round(n / SNAP) * SNAP : n)

/** Row letters A … Z, AA … */
export function rowLetter(i: number): string {
  let s = ''
  let n = i
  do {
    s = String.fromCharCode(65 + (n % 26)) + s
    n = Math.floor(n / 26) - 1
  } while (n >= 0)
  return s
}

/** Seat numbers of a row of n: left to right 1…n, or from the middle (1 in the middle, odd to the left, even to the right). */
export function seatNumbers(n: number, scheme: 'LTR' | 'MIDDLE'): number[] {
  if (scheme === 'LTR') return Array.from({ length: n }, (_, i) => i + 1)
  const out = new Array<number>(n)
  const mid = Math.floor((n - 1) / 2)
  out[mid] = 1
  let odd = 3
  let even = 2
  for (let d = 1; d < n; d++) {
    if (mid + d < n) (out[mid + d] = even), (even += 2)
    if (mid - d >= 0) (out[mid - d] = odd), (odd += 2)
  }
  return out
}

/**
 * A curved row: the top-left corners of n chairs (w × h in percent) on an arc of `radius` percent of
 * the area's width, spanning `angle` degrees, bowed towards the top (the stage) and centred on the
 * area; `top` is where the arc's highest point goes. Computed in the area's pixels, so the arc stays
 * round whatever the area's proportions.
 */
export function arcPositions(n: number, radius: number, angle: number, area: { width: number; height: number }, top: number, w: number, h: number): Array<{ x: number; y: number }> {
  const R = (radius / 100) * area.width
  const cx = area.width / 2
  const cy = (top / 100) * area.height + R
  const span = (Math.min(360, Math.max(0, angle)) * Math.PI) / 180
  return Array.from({ length: n }, (_, i) => {
    const a = n === 1 ? 0 : -span / 2 + (span * i) / (n - 1)
    return { x: ((cx + R * Math.sin(a)) / area.width) * 100 - w / 2, y: ((cy - R * Math.cos(a)) / area.height) * 100 }
  })
}

export type AlignMode = 'LEFT' | 'RIGHT' | 'TOP' | 'BOTTOM' | 'CENTER_H' | 'CENTER_V' | 'DISTRIBUTE_H' | 'DISTRIBUTE_V'

/**
 * The align tool: new positions of the selected chairs. Left/right/top/bottom line their edges up
 * with the outermost chair; centre lines up their middles on the selection's middle; distribute
 * spaces the chairs evenly between the first and the last (by their middles, in their order).
 */
export function alignChairs<C extends { uid: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>(chairs: C[], mode: AlignMode): Map<string, C> {
  const out = new Map<string, C>()
  if (chairs.length < 2) return out
  const left = Math.min(...chairs.map((c) => c.percentX))
  const right = Math.max(...chairs.map((c) => c.percentX + c.percentWidth))
  const top = Math.min(...chairs.map((c) => c.percentY))
  const bottom = Math.max(...chairs.map((c) => c.percentY + c.percentHeight))
  const distribute = (axis: 'x' | 'y') => {
    const pos = (c: C) => (axis === 'x' ? c.percentX + c.percentWidth / 2 : c.percentY + c.percentHeight / 2)
    const sorted = [...chairs].sort((a, b) => pos(a) - pos(b))
    const first = pos(sorted[0])
    const step = (pos(sorted[sorted.length - 1]) - first) / (sorted.length - 1)
    sorted.forEach((c, i) => out.set(c.uid, axis === 'x' ? { ...c, percentX: round(first + step * i - c.percentWidth / 2) } : { ...c, percentY: round(first + step * i - c.percentHeight / 2) }))
  }
  if (mode === 'DISTRIBUTE_H') distribute('x')
  else if (mode === 'DISTRIBUTE_V') distribute('y')
  else
    for (const c of chairs) {
      const at =
        mode === 'LEFT' ? { percentX: left }
        : mode === 'RIGHT' ? { percentX: right - c.percentWidth }
        : mode === 'TOP' ? { percentY: top }
        : mode === 'BOTTOM' ? { percentY: bottom - c.percentHeight }
        : mode === 'CENTER_H' ? { percentX: round((left + right) / 2 - c.percentWidth / 2) }
        : { percentY: round((top + bottom) / 2 - c.percentHeight / 2) }
      out.set(c.uid, { ...c, ...at })
    }
  return out
}

export const fromServer = (r: any): EPlan => ({
  priceCategories: r.priceCategories.map((p: any) => ({ key: `k${p.id}`, id: p.id, displayName: p.displayName, color: p.color, ticketCategoryId: p.ticketCategoryId ?? null })),
  areas: r.areas.map((a: any) => ({
    key: `a${a.id}`,
    id: a.id,
    displayName: a.displayName,
    width: a.width,
    height: a.height,
    areaImage: a.areaImage,
    chairs: a.chairs.map((c: any) => ({ ...c, uid: `c${c.id}`, priceCategory: c.priceCategory ? `k${c.priceCategory.id}` : null })),
  })),
})

export const toServer = (p: EPlan) => ({
  priceCategories: p.priceCategories.map(({ key, id, displayName, color, ticketCategoryId }) => ({ key, id, displayName, color, ticketCategoryId })),
  areas: p.areas.map((a) => ({
    id: a.id,
    displayName: a.displayName,
    width: a.width,
    height: a.height,
    areaImage: a.areaImage,
    chairs: a.chairs.map(({ uid: _u, freeChairs: _f, ...c }) => ({ ...c, percentX: round(c.percentX), percentY: round(c.percentY), percentWidth: round(c.percentWidth), percentHeight: round(c.percentHeight) })),
  })),
})

/**
 * The price categories some chair uses that name no ticket category: on an event that sells tickets
 * nothing is sold while there is one (the server's SEATING_NOT_LINKED; docs/seating.md).
 */
export const unlinkedCategories = (p: EPlan) => {
  const used = new Set(p.areas.flatMap((a) => a.chairs.map((c) => c.priceCategory)))
  return p.priceCategories.filter((c) => c.ticketCategoryId == null && used.has(c.key))
}

/** Where new chairs go: below everything the area already has. */
export const nextTop = (a: EArea) => (a.chairs.length ? Math.max(...a.chairs.map((c) => c.percentY + c.percentHeight)) + 3 : 8)

export const COLORS = ['#c2410c', '#1d4ed8', '#15803d', '#7e22ce', '#b45309', '#0e7490']
