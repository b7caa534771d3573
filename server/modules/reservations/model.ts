// The public timeslot reservation calls of guest-side.md 7.
import { z } from 'zod'

/** The browser's random id for one visit of the form (also sent with anonymous uploads). */
export const Identification = z.string().trim().min(8, 'INVALID').max(64, 'INVALID').regex(/^[A-Za-z0-9_-]+$/, 'INVALID')

export const ReserveInput = z.object({
  timeslotId: z.number().int().positive(),
  identification: Identification,
  amount: z.number().int().min(1, 'TOO_SMALL').max(1000, 'TOO_BIG').default(1),
  /** reserving while changing an existing registration (kept with the reservation) */
  registrationChange: z.boolean().default(false),
})
export const RenewInput = z.object({ identification: Identification })
export const DeleteInput = z
  .object({
    reservationToken: z.string().min(10).max(100).optional(),
    deleteAllTimed: z.boolean().optional(),
    identification: Identification.optional(),
  })
  .refine((v) => !!v.reservationToken || (v.deleteAllTimed === true && !!v.identification), { message: 'INVALID_PARAMETERS', path: ['reservationToken'] })
export const AvailabilitiesInput = z.object({ eventId: z.number().int().positive() })
