// The seat picker's model: a plan's areas, chairs and price categories as the server answers them
// (seatingplanArea, also in columns), the zoom limits and hit-testing a chair by geometry.


export interface Category {
  id: number
  color: string
  displayName: string
  /** paid events: the ticket category a chair of this category is sold as */
  ticketCategoryId?: number | null
}
/** A chair the visit holds, for the page: the ticket of a paid event follows its price category. */
export interface PickedSeat {
  chairId: number
  label: string
  amount: number
  priceCategoryId: number | null
}
export interface Area {
  id: number
  displayName: string
  width: number
  height: number
  /** asset id of the background image (drawn to fill the area, as in the editor) */
  areaImage: number | null
}
export interface Chair {
  id: number
  label: string
  priceCategory: Category | null
  status: 'BLOCKED' | null
  options: string[]
  viewType: 'CIRCLE' | 'RECTANGLE'
  percentX: number
  percentY: number
  percentWidth: number
  percentHeight: number
  places: number
  freeChairs: number
  minAmount: number
  maxAmount: number
}

/** The seatingplanArea answer: the spec's { chairs }, or with chairFormat 'columns' one array per field. */
export type AreaAnswer = { chairs: Chair[] } | { chairColumns: { [K in keyof Chair]: K extends 'priceCategory' ? Array<number | null> : Array<Chair[K]> }; priceCategories: Category[] }

/** The chairs of an area answer; columns (what the picker asks for: a fraction of the JSON to parse) become Chair objects. */
export function chairsOf(answer: AreaAnswer): Chair[] {
  if ('chairs' in answer) return answer.chairs
  const c = answer.chairColumns
  const categories = new Map(answer.priceCategories.map((p) => [p.id, p]))
  const chairs: Chair[] = new Array(c.id.length)
  for (let i = 0; i < chairs.length; i++)
    chairs[i] = {
      id: c.id[i],
      label: c.label[i],
      priceCategory: categories.get(c.priceCategory[i] as number) ?? null,
      status: c.status[i],
      options: c.options[i],
      viewType: c.viewType[i],
      percentX: c.percentX[i],
      percentY: c.percentY[i],
      percentWidth: c.percentWidth[i],
      percentHeight: c.percentHeight[i],
      places: c.places[i],
      freeChairs: c.freeChairs[i],
      minAmount: c.minAmount[i],
      maxAmount: c.maxAmount[i],
    }
  return chairs
}

export const ZOOM_MIN = 1
export const ZOOM_MAX = 20
export const ZOOM_STEP = 0.2
export const ZOOM_BUTTON_MAX = 4

/** Smallest side of a chair on a phone's first view, in CSS pixels (WCAG 2.5.8's minimum target). */
export const TAP_PX = 24
/** Space around the chairs' bounding box in the first view, in percent of the area. */
export const FIT_MARGIN = 4

export interface View {
  z: number
  x: number
  y: number
}

/** Where one axis of the drawing sits: pannable within the screen when larger, centred when smaller. */
export const clampAxis = (v: number, screen: number, world: number) => (world >= screen ? Math.min(0, Math.max(screen - world, v)) : (screen - world) / 2)

/**
 * The first view of an area (issue 20 item 25): the chairs' bounding box (with a margin) fills the
 * canvas instead of the empty area around them, the canvas takes the box's proportions up to maxH,
 * and on a touch screen the zoom makes the smallest chair at least TAP_PX wide (the guest pans to
 * the rest). W × H is the whole area at zoom 1 (its width is the canvas's width w).
 */
export function fitView(chairs: Chair[], w: number, H: number, coarse: boolean, maxH: number): View & { h: number } {
  let x0 = 100
  let y0 = 100
  let x1 = 0
  let y1 = 0
  let small = Infinity
  for (const c of chairs) {
    x0 = Math.min(x0, c.percentX)
    y0 = Math.min(y0, c.percentY)
    x1 = Math.max(x1, c.percentX + c.percentWidth)
    y1 = Math.max(y1, c.percentY + c.percentHeight)
    small = Math.min(small, (c.percentWidth * w) / 100, (c.percentHeight * H) / 100)
  }
  if (!chairs.length) [x0, y0, x1, y1] = [0, 0, 100, 100]
  x0 = Math.max(0, x0 - FIT_MARGIN)
  y0 = Math.max(0, y0 - FIT_MARGIN)
  x1 = Math.min(100, x1 + FIT_MARGIN)
  y1 = Math.min(100, y1 + FIT_MARGIN)
  const bw = Math.max(x1 - x0, 1)
  const bh = Math.max(y1 - y0, 1)
  const fit = Math.min(100 / bw, maxH / ((bh / 100) * H))
  const tap = coarse && small < Infinity && small > 0 ? TAP_PX / small : 1
  const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, fit, tap))
  const h = Math.round(Math.min(maxH, Math.max(Math.min(160, H * z), (bh / 100) * H * z)))
  return { z, h, x: clampAxis(w / 2 - ((x0 + bw / 2) / 100) * w * z, w, w * z), y: clampAxis(h / 2 - ((y0 + bh / 2) / 100) * H * z, h, H * z) }
}

export const flag = (k: string) => {
  const q = new URLSearchParams(location.search)
  return q.has(k) && q.get(k) !== 'false' && q.get(k) !== '0'
}

/** The row of a chair for the list: the label's first word ("A 12" → "A", "Tisch 3" → "Tisch"). */
export const rowOf = (label: string) => label.trim().split(/\s+/)[0] ?? ''

/** The list's group of a chair: its row, or '' for a table (a chair of several places is no row seat). */
export const groupOf = (c: Pick<Chair, 'label' | 'places'>) => (c.places > 1 ? '' : rowOf(c.label))

/** The chair under a point given in percent of the area (topmost first); circles by their ellipse. */
export function chairAt(chairs: Chair[], qx: number, qy: number): Chair | null {
  for (let i = chairs.length - 1; i >= 0; i--) {
    const c = chairs[i]
    if (qx < c.percentX || qy < c.percentY || qx > c.percentX + c.percentWidth || qy > c.percentY + c.percentHeight) continue
    if (c.viewType === 'CIRCLE') {
      const rx = c.percentWidth / 2
      const ry = c.percentHeight / 2
      const dx = (qx - c.percentX - rx) / rx
      const dy = (qy - c.percentY - ry) / ry
      if (dx * dx + dy * dy > 1) continue
    }
    return c
  }
  return null
}
