// Agreements (guest-side.md 3, agency-side.md 3): global defaults of the agency and event agreements.
import { z } from 'zod'
import { requiredText } from '../../shared/validation'

export const AGREEMENT_APPEARANCES = ['VISIBLE', 'REQUIRED'] as const
export const AGREEMENT_VALIDITIES = ['GLOBAL', 'EVENT'] as const
export const DECISIONS = ['CONFIRMED', 'DECLINED'] as const
export const MAX_SIGNATURE_CHARS = 400_000

export const AgreementInput = z
  .object({
    displayName: requiredText(200),
    /** rich text (HTML); sanitised on the server */
    description: z.string().max(100_000, 'TOO_LONG').default(''),
    appearance: z.enum(AGREEMENT_APPEARANCES).default('REQUIRED'),
    validity: z.enum(AGREEMENT_VALIDITIES),
    eventId: z.number().int().positive().nullish(),
    active: z.boolean().default(true),
    sortOrder: z.number().int().min(0).max(10000).default(0),
  })
  .superRefine((v, ctx) => {
    if (v.validity === 'EVENT' && !v.eventId) ctx.addIssue({ code: 'custom', path: ['eventId'], message: 'REQUIRED' })
  })
export type AgreementInput = z.infer<typeof AgreementInput>

export const AgreementSearch = z.object({
  eventId: z.number().int().positive().optional(),
  validity: z.enum(AGREEMENT_VALIDITIES).optional(),
  includeInactive: z.boolean().default(false),
})

const dateOrInstant = () => z.union([z.iso.date({ error: 'INVALID_DATE' }), z.iso.datetime({ offset: true, error: 'INVALID_DATE' })], { error: 'INVALID_DATE' })

/** The (visitor) agreement filter of agency-side.md 3: decision dates and validity. */
export const AgreementFilter = z
  .object({ startDate: dateOrInstant().nullish(), endDate: dateOrInstant().nullish(), validity: z.enum(AGREEMENT_VALIDITIES).nullish() })
  .superRefine((v, ctx) => {
    if (v.startDate && v.endDate && v.endDate.slice(0, 10) < v.startDate.slice(0, 10)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'END_BEFORE_START' })
  })

export const SignatureSearch = z.object({
  filter: AgreementFilter.default({}),
  eventId: z.number().int().positive().optional(),
  visitorId: z.number().int().positive().optional(),
  agreementId: z.number().int().positive().optional(),
  page: z.number().int().min(0).default(0),
  perPage: z.number().int().min(1).max(500).default(50),
})

export const SignInput = z.object({
  agreements: z
    .array(
      z.object({
        id: z.number().int().positive(),
        status: z.enum(DECISIONS),
        /** PNG data URL of the drawn signature; required for CONFIRMED */
        signature: z.string().max(MAX_SIGNATURE_CHARS, 'TOO_LONG').nullish(),
      }),
    )
    .min(1, 'REQUIRED')
    .max(50),
})
export type SignInput = z.infer<typeof SignInput>

/** The agreements a guest decides on while registering (issue 10, item 3). */
export const RegistrationAgreements = z
  .array(
    z.object({
      id: z.number().int().positive(),
      status: z.enum(DECISIONS),
      /** PNG data URL of the drawn signature; required for CONFIRMED */
      signature: z.string().max(MAX_SIGNATURE_CHARS, 'TOO_LONG').nullish(),
      /** the agreement's version the guest saw; another one refuses with AGREEMENT_CHANGED */
      version: z.number().int().positive().optional(),
    }),
  )
  .max(50)
  .default([])
export type RegistrationAgreements = z.infer<typeof RegistrationAgreements>
