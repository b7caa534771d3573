// Guest list shapes shared by the organiser UI and the server (docs/organiser.md, "Guests").
import { z } from 'zod'
import { email, optionalText, requiredText } from '../../shared/validation'
import { VISITOR_STATUSES } from './visitors.table'

export const VIP_FILTERS = ['WHATEVER', 'NO_VIP', 'ONLY_VIP'] as const
export const VISITOR_SORT_FIELDS = ['lastName', 'firstName', 'email', 'company', 'status', 'registeredAt', 'createdAt', 'visitorCount', 'vip'] as const
const ids = () => z.array(z.number().int().positive()).max(200).default([])

/** The guest filter of agency-side.md section 3, plus statuses. */
export const GuestFilter = z.object({
  /** only guests waiting for a decision (PENDING, REQUIRE_APPROVAL) */
  showPending: z.boolean().default(false),
  /** older spelling of vipFilter ONLY_VIP */
  showVip: z.boolean().default(false),
  vipFilter: z.enum(VIP_FILTERS).default('WHATEVER'),
  showMailError: z.boolean().default(false),
  tags: ids(),
  campaigns: ids(),
  /** guests who CONFIRMED every one of these agreements */
  agreements: ids(),
  /** default: every status but DELETED */
  statuses: z.array(z.enum(VISITOR_STATUSES)).max(10).default([]),
})
export type GuestFilter = z.infer<typeof GuestFilter>

export const GuestSearch = z.object({
  filter: GuestFilter.default(GuestFilter.parse({})),
  search: z.string().trim().max(200).optional(),
  sort: z.object({ field: z.enum(VISITOR_SORT_FIELDS).default('lastName'), direction: z.enum(['asc', 'desc']).default('asc') }).default({ field: 'lastName', direction: 'asc' }),
  page: z.number().int().min(0).default(0),
  perPage: z.number().int().min(1).max(500).default(50),
})
export type GuestSearch = z.infer<typeof GuestSearch>

const csv = (v: string | undefined) => (v ? v.split(',').filter(Boolean) : [])
const bool = (v: string | undefined) => v === 'true' || v === '1'
/** The same search as query parameters (GET list, CSV export links). */
export const GuestListQuery = z.object({
  search: z.string().max(200).optional(),
  page: z.string().optional(),
  perPage: z.string().optional(),
  sort: z.string().optional(),
  direction: z.string().optional(),
  showPending: z.string().optional(),
  showVip: z.string().optional(),
  vipFilter: z.string().optional(),
  showMailError: z.string().optional(),
  tags: z.string().optional(),
  campaigns: z.string().optional(),
  agreements: z.string().optional(),
  statuses: z.string().optional(),
})
export function queryToGuestSearch(q: z.infer<typeof GuestListQuery>): unknown {
  const num = (l: string[]) => l.map(Number)
  return {
    search: q.search,
    page: q.page === undefined ? undefined : Number(q.page),
    perPage: q.perPage === undefined ? undefined : Number(q.perPage),
    sort: q.sort ? { field: q.sort, direction: q.direction ?? 'asc' } : undefined,
    filter: {
      showPending: bool(q.showPending),
      showVip: bool(q.showVip),
      vipFilter: q.vipFilter || undefined,
      showMailError: bool(q.showMailError),
      tags: num(csv(q.tags)),
      campaigns: num(csv(q.campaigns)),
      agreements: num(csv(q.agreements)),
      statuses: csv(q.statuses),
    },
  }
}
export function guestSearchToQuery(s: Partial<GuestSearch> & { filter?: Partial<GuestFilter> }): string {
  const p = new URLSearchParams()
  const f: Partial<GuestFilter> = s.filter ?? {}
  if (s.search) p.set('search', s.search)
  if (s.sort) {
    p.set('sort', s.sort.field)
    p.set('direction', s.sort.direction)
  }
  if (f.showPending) p.set('showPending', 'true')
  if (f.showMailError) p.set('showMailError', 'true')
  if (f.vipFilter && f.vipFilter !== 'WHATEVER') p.set('vipFilter', f.vipFilter)
  for (const k of ['tags', 'campaigns', 'agreements', 'statuses'] as const) if (f[k]?.length) p.set(k, f[k]!.join(','))
  return p.toString()
}

const optionalEmail = () => z.union([email(), z.literal('').transform(() => null), z.null()]).optional().transform((v) => v ?? null)

/** A person's contact data as the API names it: a guest, an escort person, a scanned contact card.
 *  (A type, not an interface: prepared statements take it as a plain record.) */
export type Contact = {
  salutation: string | null
  title: string | null
  firstName: string | null
  lastName: string | null
  email: string | null
  company: string | null
  position: string | null
  phoneNumber: string | null
}

/** The contact data the organiser enters for a guest and for each escort person. */
const contactInput = {
  salutation: optionalText(20),
  title: optionalText(50),
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: optionalEmail(),
  company: optionalText(200),
  position: optionalText(200),
  phoneNumber: optionalText(40),
}

export const EscortInput = z.object({
  /** id of an existing escort person (keeps its check-in state); omit for a new one */
  id: z.number().int().positive().optional(),
  ...contactInput,
})

export const VisitorInput = z.object({
  ...contactInput,
  vip: z.boolean().default(false),
  note: optionalText(2000),
  escortPersons: z.array(EscortInput).max(50).default([]),
  /** on a paid event: persons beyond the guest's tickets come free of charge (recorded; docs/ticketing.md) */
  escortsFreeOfCharge: z.boolean().default(false),
  tags: ids(),
  campaigns: ids(),
  /** on create only: ADDED (on the list) or CONFIRMED (registered, takes places) */
  status: z.enum(['ADDED', 'CONFIRMED']).default('ADDED'),
})
export type VisitorInput = z.infer<typeof VisitorInput>

export const VisitorPatch = z.object({ vip: z.boolean().optional(), note: optionalText(2000) })

export const VISITOR_ACTIONS = ['approve', 'decline', 'invite', 'delete', 'restore'] as const
export type VisitorAction = (typeof VISITOR_ACTIONS)[number]
export const ActionInput = z.object({
  /** invite: hold a place and ask the guest to confirm (PENDING) */
  reservePlace: z.boolean().default(false),
  /** approve/decline/invite: mail the guest (default true) */
  notify: z.boolean().default(true),
  reason: optionalText(1000),
})

export const GuestDecision = z.object({ visitor: z.number().int().positive(), reason: optionalText(1000) })
