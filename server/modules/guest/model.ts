// The guest portal's calls (guest-side.md 7, "Guest events"): shapes shared by the server routes and
// the guest UI. Escort persons are checked by the form engine with the event's ESCORT_* settings;
// these schemas only bound the structure.
import { z } from 'zod'
import { RegistrationInput } from '../registration/model'
import { email, requiredText } from '../../shared/validation'

const text = (max = 300) => z.string().max(max, 'TOO_LONG').nullish()

/** One escort person as the details dialog edits it; `id` keeps an existing one (and its check-in state). */
export const EscortEdit = z.object({
  id: z.number().int().positive().nullish(),
  salutation: text(),
  title: text(),
  firstName: text(100),
  lastName: text(100),
  email: text(254),
  company: text(),
  position: text(),
  phoneNumber: text(50),
  web: text(),
  info: text(5000),
  birthday: text(20),
  covidState: text(20),
  address: z
    .object({ street: text(200), streetNumber: text(20), postCode: text(20), city: text(120), country: text(3) })
    .nullish(),
})
export type EscortEdit = z.infer<typeof EscortEdit>

/** PATCH /api/guest/events/visitors/{id}: escortPersons (the whole list; missing ones are removed). */
export const EscortsPatch = z.object({ escortPersons: z.array(EscortEdit).max(100) })
export type EscortsPatch = z.infer<typeof EscortsPatch>

/** POST /api/public/events/{id}/visitor/resendMail: visitorId */
export const ResendMailInput = z.object({ visitorId: z.number().int().positive('INVALID') })

/** A change of the registration data (CAN_EDIT_REGISTRATION_DATA): the registration form's shape. */
export const DataChangeInput = RegistrationInput.omit({ shortLink: true, email: true })
export type DataChangeInput = z.infer<typeof DataChangeInput>

/** Passing the place on: who gets it. */
export const TransferInput = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: email(),
})
export type TransferInput = z.infer<typeof TransferInput>
