// Request schemas of the payments domain shared with the organiser's forms (ui/apps/organiser/tickets).
import { z } from 'zod'

/** The organiser's refund through the provider: an amount in cents, or none for all that is left. */
export const RefundPaymentInput = z.object({ amount: z.number('INVALID').int('INVALID').min(1, 'TOO_SMALL').max(100_000_000, 'TOO_BIG').nullish() })
export type RefundPaymentInput = z.infer<typeof RefundPaymentInput>
