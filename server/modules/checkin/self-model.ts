// Self check-in (guest-side.md 2 "Self check-in dialog", 7 prepareCheckin / checkInOut).
import { z } from 'zod'
import { DECISIONS, MAX_SIGNATURE_CHARS } from '../agreements/model'

/** the registration's own random token (event_token) from the self check-in link /guest/checkin/{token} */
const token = () => z.string().trim().min(6, 'INVALID').max(100, 'INVALID')
/** person numbers: 0 = main guest, n = escort person n */
const Persons = z.array(z.number().int().min(0).max(100)).max(101).default([])

export const PrepareCheckinInput = z.object({ token: token() })

export const CheckInOutInput = z.object({
  token: token(),
  checkinGuests: Persons,
  checkoutGuests: Persons,
  origin: z.literal('selfcheckin').default('selfcheckin'),
  /** decisions given in the dialog before checking in; stored first (origin SELF_CHECKIN) */
  agreements: z
    .array(z.object({ id: z.number().int().positive(), status: z.enum(DECISIONS), signature: z.string().max(MAX_SIGNATURE_CHARS, 'TOO_LONG').nullish() }))
    .max(50)
    .default([]),
  /** optional client nonce: a retried request changes nothing */
  nonce: z.string().trim().min(8).max(100).optional(),
})
export type CheckInOutInput = z.infer<typeof CheckInOutInput>
