import { z } from 'zod'
import { optionalText } from '../../shared/validation'

/** person numbers: 0 = main guest, n = escort person n; or "ALL" */
const Persons = z.union([z.literal('ALL'), z.array(z.number().int().min(0).max(100)).max(101)]).default([])

export const CheckinInput = z
  .object({
    code: z.string().trim().max(60).optional(),
    visitorId: z.number().int().positive().optional(),
    checkinGuests: Persons,
    checkoutGuests: Persons,
    /** client-generated per scan; a retried request with the same nonce changes nothing */
    nonce: z.string().trim().min(8).max(100).optional(),
    note: optionalText(500),
    ignoreMissingAgreements: z.boolean().default(false),
    /** the check-in list the desk works on (docs/ticketing.md "Check-in lists"); none: the event as a whole */
    listId: z.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.code && !v.visitorId) ctx.addIssue({ code: 'custom', path: ['code'], message: 'REQUIRED' })
    const none = (p: 'ALL' | number[]) => p !== 'ALL' && p.length === 0
    if (none(v.checkinGuests) && none(v.checkoutGuests)) ctx.addIssue({ code: 'custom', path: ['checkinGuests'], message: 'NO_GUESTS_SELECTED' })
  })
export type CheckinInput = z.infer<typeof CheckinInput>

export const LookupQuery = z.object({ code: z.string().trim().max(60).optional(), search: z.string().trim().max(200).optional(), listId: z.coerce.number().int().positive().optional() })

/** One person of a registration at the desk: 0 = the main guest, n = escort person n. */
export interface Person {
  person: number
  salutation: string | null
  title: string | null
  firstName: string | null
  lastName: string | null
  checkState: 'OPEN' | 'CHECKED_IN' | 'CHECKED_OUT'
  checkinDate: string | null
  checkoutDate: string | null
  /**
   * Who checked the person in, while they are in (the desk's "Bereits eingecheckt um 14:20 (von …)"):
   * the staff member's name or e-mail, null for a self check-in or when unknown. Only in lookups.
   */
  checkinBy?: string | null
  /** DESK or SELF, while the person is in; only in lookups */
  checkinOrigin?: string | null
  /**
   * A lookup on a check-in list: why the list does not admit this person (their own ticket's category,
   * or no ticket), the error a check-in would answer; null when it admits them.
   */
  listRefusal?: { errorType: string; params: Record<string, string | number> } | null
}
