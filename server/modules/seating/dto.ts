// The Chair of agency-side.md §3 as the canvas reads it.
import { bool } from '../../db/types'
import type { SeatingAreaRow, SeatingChairRow, SeatingPriceCategoryRow } from './seating.table'

export interface PriceCategoryDto {
  id: number
  color: string
  displayName: string
  ticketCategoryId: number | null
}

export const priceCategoryDto = (p: SeatingPriceCategoryRow): PriceCategoryDto => ({ id: p.id, color: p.color, displayName: p.display_name, ticketCategoryId: p.ticket_category_id })

export const areaDto = (a: SeatingAreaRow) => ({ id: a.id, displayName: a.display_name, width: a.width, height: a.height, areaImage: a.image_asset_id })

export interface HoldOfVisit {
  token: string
  amount: number
  expiresAt: string | null
}

export function chairDto(c: SeatingChairRow, categories: Map<number, PriceCategoryDto>, hold?: HoldOfVisit) {
  const options = [...(bool(c.love_chair) ? ['LOVE_CHAIR'] : []), ...(bool(c.disabled_chair) ? ['DISABLED_CHAIR'] : [])]
  return {
    id: c.id,
    label: c.label,
    priceCategory: c.price_category_id != null ? (categories.get(c.price_category_id) ?? null) : null,
    status: bool(c.blocked) ? ('BLOCKED' as const) : null,
    options,
    viewType: c.view_type,
    percentX: c.percent_x,
    percentY: c.percent_y,
    percentWidth: c.percent_width,
    percentHeight: c.percent_height,
    places: c.places,
    freeChairs: bool(c.blocked) ? 0 : Math.max(0, c.places - c.taken),
    minAmount: c.min_amount,
    maxAmount: c.max_amount,
    /** held by the asking visit */
    choosed: Boolean(hold),
    choosedAmount: hold?.amount ?? 0,
    reservationToken: hold?.token ?? null,
    reservationExpireDate: hold?.expiresAt ?? null,
  }
}

export type ChairDto = ReturnType<typeof chairDto>
/** The fields of a Chair in the order of chairFormat 'columns' (priceCategory as the category's id). */
export const CHAIR_FIELDS = ['id', 'label', 'priceCategory', 'status', 'options', 'viewType', 'percentX', 'percentY', 'percentWidth', 'percentHeight', 'places', 'freeChairs', 'minAmount', 'maxAmount', 'choosed', 'choosedAmount', 'reservationToken', 'reservationExpireDate'] as const

/**
 * The area's chairs as one array per field (chairFormat 'columns', einlass's extension of the
 * seatingplanArea call): chair i is { id: id[i], label: label[i], … } with priceCategory the id of one
 * of the answer's priceCategories. JSON of 5,000 chairs: 1.9 MB as objects, about 0.3 MB as columns,
 * and a throttled phone parses it in a fraction of the time.
 */
export function chairColumns(list: ChairDto[]) {
  const columns = {} as { [K in (typeof CHAIR_FIELDS)[number]]: unknown[] }
  for (const field of CHAIR_FIELDS) columns[field] = field === 'priceCategory' ? list.map((c) => c.priceCategory?.id ?? null) : list.map((c) => c[field])
  return columns
}
