// Seating plan shapes (agency-side.md §3 Chair and Seating plan; §7 seating calls), shared by the
// server and the editor. Field names follow the spec: percentX…, freeChairs, minAmount, maxAmount.
import { z } from 'zod'
import { requiredText } from '../../shared/validation'
import { Identification } from '../reservations/model'

/** Most chairs one event's plan may hold (a stadium block is a few thousand). */
export const MAX_CHAIRS_PER_EVENT = 20_000
export const MAX_AREAS = 50
export const MAX_PRICE_CATEGORIES = 50
/** Places one chair (a table, a box) may have. */
export const MAX_PLACES_PER_CHAIR = 100
/** The spec's default canvas. */
export const DEFAULT_AREA = { width: 1500, height: 1000 }

const percent = (min = 0) => z.number().min(min, 'TOO_SMALL').max(100, 'TOO_BIG')
const key = z.string().trim().min(1, 'REQUIRED').max(40, 'TOO_LONG')

export const ChairOption = z.enum(['LOVE_CHAIR', 'DISABLED_CHAIR'])
export const ChairInput = z
  .object({
    id: z.number().int().positive().optional(),
    label: requiredText(40),
    /** the key of one of the plan's priceCategories, or null */
    priceCategory: key.nullable().default(null),
    viewType: z.enum(['CIRCLE', 'RECTANGLE']).default('CIRCLE'),
    percentX: percent(),
    percentY: percent(),
    percentWidth: percent(0.01),
    percentHeight: percent(0.01),
    options: z.array(ChairOption).max(2).default([]),
    status: z.enum(['BLOCKED']).nullable().default(null),
    /** places of the chair (a table of 8: 8) */
    places: z.number().int().min(1, 'TOO_SMALL').max(MAX_PLACES_PER_CHAIR, 'TOO_BIG').default(1),
    minAmount: z.number().int().min(1, 'TOO_SMALL').default(1),
    maxAmount: z.number().int().min(1, 'TOO_SMALL').optional(),
  })
  .refine((c) => c.minAmount <= c.places, { message: 'TOO_BIG', path: ['minAmount'] })
  .refine((c) => c.maxAmount === undefined || (c.maxAmount >= c.minAmount && c.maxAmount <= c.places), { message: 'INVALID', path: ['maxAmount'] })

export const PriceCategoryInput = z.object({
  /** a client key chairs refer to; existing categories may use their id as key */
  key,
  id: z.number().int().positive().optional(),
  displayName: requiredText(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'INVALID'),
  ticketCategoryId: z.number().int().positive().nullable().default(null),
})

export const AreaInput = z.object({
  id: z.number().int().positive().optional(),
  displayName: requiredText(100),
  width: z.number().int().min(100, 'TOO_SMALL').max(20_000, 'TOO_BIG').default(DEFAULT_AREA.width),
  height: z.number().int().min(100, 'TOO_SMALL').max(20_000, 'TOO_BIG').default(DEFAULT_AREA.height),
  /** asset id of the background image */
  areaImage: z.number().int().positive().nullable().default(null),
  chairs: z.array(ChairInput).max(MAX_CHAIRS_PER_EVENT, 'TOO_MANY'),
})

export const SeatingPlanInput = z.object({
  priceCategories: z.array(PriceCategoryInput).max(MAX_PRICE_CATEGORIES, 'TOO_MANY'),
  areas: z.array(AreaInput).max(MAX_AREAS, 'TOO_MANY'),
})
export type SeatingPlanInput = z.infer<typeof SeatingPlanInput>

export const CopyPlanInput = z.object({ fromEventId: z.number().int().positive() })
export const BlockInput = z.object({ blocked: z.boolean() })
export const AssignInput = z.object({ chairId: z.number().int().positive() })

// public calls (guest-side.md §7)
export const AreaQuery = z.object({
  areaId: z.number().int().positive(),
  identification: Identification.optional(),
  /**
   * einlass's extension, not in the spec: 'columns' answers the same chairs as one array per Chair
   * field ({ chairColumns, priceCategories }) instead of { chairs }; the guest's picker asks for it
   * (a plan of 5,000 chairs is 1.9 MB of objects, 0.2 MB of columns). Without it: the spec's answer.
   */
  chairFormat: z.enum(['columns']).optional(),
})
export const ChairReserveInput = z.object({
  chairId: z.number().int().positive(),
  identification: Identification,
  amount: z.number().int().min(1, 'TOO_SMALL').max(MAX_PLACES_PER_CHAIR, 'TOO_BIG').default(1),
})
export const ChairRenewInput = z.object({ identification: Identification })
export const ChairDeleteInput = z
  .object({
    reservationToken: z.string().min(10).max(100).optional(),
    amount: z.number().int().min(1).max(MAX_PLACES_PER_CHAIR).optional(),
    identification: Identification.optional(),
    deleteAll: z.boolean().optional(),
  })
  .refine((v) => !!v.reservationToken || (v.deleteAll === true && !!v.identification), { message: 'INVALID_PARAMETERS', path: ['reservationToken'] })
