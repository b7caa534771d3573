// The registration call's structure. Which fields are required, visible and valid depends on the
// event's form and is decided by the form engine (server/modules/forms/engine.ts), on the server
// and in the browser alike; this schema only bounds the shape.
import { z } from 'zod'
import { RegistrationAgreements } from '../agreements/model'
import { MAX_BASIC_TEXT } from '../forms/values'
import { Identification } from '../reservations/model'
import { TicketsInput } from '../ticketing/model'

const text = z.string().max(MAX_BASIC_TEXT, 'TOO_LONG').nullish()

export const RegistrationInput = z.object({
  salutation: text,
  title: text,
  firstName: text,
  lastName: text,
  email: text,
  /** field id → value (see FieldValue in forms/definitions.ts) */
  fields: z.record(z.string(), z.unknown()).default({}),
  escortPersons: z.array(z.record(z.string(), z.unknown())).max(100).default([]),
  language: z.string().max(10).optional(),
  /** the browser's id of this visit: its reservations and uploads */
  identification: Identification.optional(),
  /** the short link the guest came by (the public page's `?sl=`): its tags and campaign go to the registration */
  shortLink: z.string().max(64, 'TOO_LONG').nullish(),
  /** decisions on the event's agreements: every REQUIRED one CONFIRMED with a signature */
  agreements: RegistrationAgreements,
  /** paid events: the tickets per category (docs/ticketing.md); one ticket is one person */
  tickets: TicketsInput.optional(),
  couponCode: z.string().max(40, 'TOO_LONG').nullish(),
  /** paid events: the code that reveals hidden ticket categories (docs/ticketing.md, "Selling rules") */
  ticketCode: z.string().max(40, 'TOO_LONG').nullish(),
  /** the visit's chair hold tokens (seating plan, guest-side.md §4): fixed to the registration in its transaction */
  chairReservations: z.array(z.string().min(10).max(100)).max(100).optional(),
})
export type RegistrationInput = z.infer<typeof RegistrationInput>

/** An organiser registering a guest through the same form (admin mode: no reservations). */
export const AdminRegistrationInput = RegistrationInput.extend({
  vip: z.boolean().default(false),
  /** send the guest the confirmation mail (default yes) */
  sendMail: z.boolean().default(true),
})
export type AdminRegistrationInput = z.infer<typeof AdminRegistrationInput>
