// Media gallery payloads (agency-side.md 2.8 and 3 "Media gallery"; docs/media.md).
import { z } from 'zod'
import { isoDateTime, optionalText, requiredText } from '../../shared/validation'

/** The picker's page sizes (agency-side.md 2.8 and 9). */
export const GALLERY_PAGE_SIZES = [2, 10, 20, 50] as const

export const CategoryInput = z.object({ displayName: requiredText(120) })

const window = <T extends z.ZodType<{ validFrom?: string | null; validUntil?: string | null }>>(s: T) =>
  s.superRefine((v, ctx) => {
    if (v.validFrom && v.validUntil && new Date(v.validUntil) < new Date(v.validFrom)) ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'END_BEFORE_START' })
  })

const EntryFields = {
  displayName: requiredText(200),
  copyright: optionalText(200),
  note: optionalText(1000),
  validFrom: isoDateTime().nullish(),
  validUntil: isoDateTime().nullish(),
}

export const EntryInput = window(z.object({ categoryId: z.number().int().positive('INVALID'), assetId: z.number().int().positive('INVALID'), ...EntryFields }))
export const EntryPatch = window(z.object({ categoryId: z.number().int().positive('INVALID').optional(), ...EntryFields }))

export const EntrySearch = z.object({
  categoryId: z.number().int().positive('INVALID'),
  /** true (the picker): only entries valid now; false (the gallery screen): every entry */
  validOnly: z.boolean().default(false),
  paging: z
    .object({
      page: z.number().int().min(0).default(0),
      perPage: z
        .number()
        .int()
        .refine((n) => (GALLERY_PAGE_SIZES as readonly number[]).includes(n), 'INVALID')
        .default(10),
    })
    .default({ page: 0, perPage: 10 }),
})
