import type { Generated, Selectable } from 'kysely'
import type { GenBool, Id, Timestamp } from '../../db/types'

export interface SeatingPriceCategoryTable {
  id: Id
  event_id: number
  display_name: string
  /** #rrggbb */
  color: string
  /** the ticket category whose price a chair of this category costs (paid events) */
  ticket_category_id: number | null
  sort: Generated<number>
}

export interface SeatingAreaTable {
  id: Id
  event_id: number
  display_name: string
  /** the drawing's size in pixels (spec: canvas 1500 × 1000 by default) */
  width: number
  height: number
  /** background image: an asset of the event's agency */
  image_asset_id: number | null
  sort: Generated<number>
}

export type ChairViewType = 'CIRCLE' | 'RECTANGLE'

export interface SeatingChairTable {
  id: Id
  area_id: number
  event_id: number
  /** what guests and the desk read: "A 12", "Tisch 3" */
  label: string
  price_category_id: number | null
  view_type: ChairViewType
  /** position and size in percent of the area, so the plan scales */
  percent_x: number
  percent_y: number
  percent_width: number
  percent_height: number
  love_chair: GenBool
  disabled_chair: GenBool
  /** manage mode: not for sale */
  blocked: GenBool
  /** places of the chair: 1 for a seat, 8 for a table of eight */
  places: number
  min_amount: number
  max_amount: number
  /** places held (reserved or fixed to a registration); changes only by conditional update */
  taken: Generated<number>
}

export interface ChairReservationTable {
  id: Id
  token: string
  chair_id: number
  event_id: number
  identification: string
  amount: number
  fixed: GenBool
  visitor_id: number | null
  /** null once fixed to a registration */
  expires_at: Timestamp | null
  created_at: Timestamp
  /** hashed client address of a timed hold (null for fixed holds and holds made before it was recorded) */
  client_key?: string | null
}

/** A chair a ticket order bought: priced by `category_id` (a ticket category), labelled as sold. */
export interface TicketOrderChairTable {
  id: Id
  order_id: number
  chair_id: number
  category_id: number | null
  label: string
  amount: number
}

export type SeatingChairRow = Selectable<SeatingChairTable>
export type SeatingAreaRow = Selectable<SeatingAreaTable>
export type SeatingPriceCategoryRow = Selectable<SeatingPriceCategoryTable>

export interface SeatingTables {
  seating_price_category: SeatingPriceCategoryTable
  seating_area: SeatingAreaTable
  seating_chair: SeatingChairTable
  chair_reservation: ChairReservationTable
  ticket_order_chair: TicketOrderChairTable
}
