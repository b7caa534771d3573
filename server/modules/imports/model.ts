// CSV import of guests: mapping targets and the calls' bodies (docs/organiser.md, "CSV import").
import { z } from 'zod'

export const ESCORT_SLOTS = 5
export const IMPORT_FIELDS = [
  'salutation',
  'title',
  'firstName',
  'lastName',
  'email',
  'company',
  'position',
  'phoneNumber',
  'vip',
  'status',
  'tags',
  'note',
  ...Array.from({ length: ESCORT_SLOTS }, (_, i) => [`escort${i + 1}FirstName`, `escort${i + 1}LastName`]).flat(),
] as const
export type ImportField = (typeof IMPORT_FIELDS)[number]

/** Header names (lower case) each target is recognised by. */
export const HEADER_ALIASES: Partial<Record<ImportField, string[]>> = {
  salutation: ['anrede', 'salutation'],
  title: ['titel', 'title'],
  firstName: ['vorname', 'first name', 'firstname', 'given name'],
  lastName: ['nachname', 'name', 'last name', 'lastname', 'surname', 'family name'],
  email: ['e-mail', 'email', 'e-mail-adresse', 'mail', 'email address'],
  company: ['firma', 'unternehmen', 'company', 'organisation', 'organization'],
  position: ['position', 'funktion', 'job title'],
  phoneNumber: ['telefon', 'telefonnummer', 'phone', 'phone number', 'mobil'],
  vip: ['vip'],
  status: ['status'],
  tags: ['tags', 'schlagworte'],
  note: ['notiz', 'bemerkung', 'note', 'notes'],
  ...Object.fromEntries(
    Array.from({ length: ESCORT_SLOTS }, (_, i) => [
      [`escort${i + 1}FirstName`, [`begleitung ${i + 1} vorname`, `escort ${i + 1} first name`]],
      [`escort${i + 1}LastName`, [`begleitung ${i + 1} nachname`, `escort ${i + 1} last name`]],
    ]).flat(),
  ),
}

export const Mapping = z.partialRecord(z.enum(IMPORT_FIELDS), z.number().int().min(0).max(500))
export type Mapping = z.infer<typeof Mapping>

export const ImportRunInput = z
  .object({
    mapping: Mapping,
    /** status of rows without a status column value */
    defaultStatus: z.enum(['ADDED', 'CONFIRMED']).default('ADDED'),
    /** import the valid rows even when some are bad (the bad ones are reported) */
    skipInvalid: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.mapping.firstName === undefined) ctx.addIssue({ code: 'custom', path: ['mapping', 'firstName'], message: 'REQUIRED' })
    if (v.mapping.lastName === undefined) ctx.addIssue({ code: 'custom', path: ['mapping', 'lastName'], message: 'REQUIRED' })
  })
export type ImportRunInput = z.infer<typeof ImportRunInput>

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024
