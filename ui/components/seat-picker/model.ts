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

export const flag = (k: string) => {
  const q = new URLSearchParams(location.search)
  return q.has(k) && q.get(k) !== 'false' && q.get(k) !== '0'
}

/** The row of a chair for the list: the label's first word ("A 12" → "A", "Tisch 3" → "Tisch"). */
export const rowOf = (label: string) => label.trim().split(/\s+/)[0] ?? ''

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
