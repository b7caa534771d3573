import { z } from 'zod'

export const NotificationsPatchBody = z.object({
  notifications: z
    .array(
      z.object({
        code: z.string().min(1, 'REQUIRED').max(60, 'INVALID'),
        /** null: inherit (agency and event level only) */
        enabled: z.boolean().nullable(),
      }),
    )
    .max(100),
})
export type NotificationsPatchBody = z.infer<typeof NotificationsPatchBody>

export const NotificationsPatchQuery = z.object({
  user: z.enum(['true', 'false']).optional(),
  accountId: z.coerce.number().int().positive().optional(),
  eventId: z.coerce.number().int().positive().optional(),
})
