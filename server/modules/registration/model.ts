// The public registration call. The form engine (issue 5) adds event-specific fields; the basic
// data and escorts are fixed here.
import { z } from 'zod'
import { email, optionalText, requiredText } from '../../shared/validation'

export const SALUTATIONS = ['Herr', 'Frau', 'Divers'] as const

export const EscortInput = z.object({
  salutation: optionalText(20),
  title: optionalText(50),
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: z.union([email(), z.literal('').transform(() => null), z.null()]).optional(),
})

export const RegistrationInput = z.object({
  salutation: z.enum(SALUTATIONS, { error: 'REQUIRED' }),
  title: optionalText(50),
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: email(),
  escortPersons: z.array(EscortInput).max(50).default([]),
  language: z.string().max(10).optional(),
})
export type RegistrationInput = z.infer<typeof RegistrationInput>
