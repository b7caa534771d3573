import { z } from 'zod'

export const CheckinListInput = z.object({
  name: z.string().trim().min(1, 'REQUIRED').max(100, 'TOO_LONG'),
  /** the ticket categories admitted; empty = all categories and guests without ticket */
  categoryIds: z.array(z.number().int().positive()).max(200).default([]),
})
export type CheckinListInput = z.infer<typeof CheckinListInput>
