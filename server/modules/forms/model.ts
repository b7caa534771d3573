// Field definitions as the form builder sends them; shared by the server routes and the builder UI.
import { z } from 'zod'
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../../i18n/languages'
import { optionalText, requiredText } from '../../shared/validation'
import { APPEARANCES, DEFAULT_FIELD_CODES, FIELD_TYPES, OPERATORS, SIZES, VIP_SOURCE, isDecoration } from './definitions'

// A translation is for one of the languages of agency-side 9.1 other than the form's own German.
const TRANSLATION_LANGUAGES = LANGUAGE_CODES.filter((c) => c !== DEFAULT_LANGUAGE) as [string, ...string[]]
const TranslationInput = z.object({ language: z.enum(TRANSLATION_LANGUAGES), displayName: z.string().trim().max(200) })

export const ConditionInput = z.object({
  fieldId: z.union([z.literal(VIP_SOURCE), z.number().int().positive()]),
  operator: z.enum(OPERATORS),
  value: z.union([z.string().max(200), z.number()]).nullish(),
})

export const DefinedValueInput = z.object({
  id: z.number().int().positive().optional(),
  displayName: requiredText(200),
  description: optionalText(1000),
  translations: z.array(TranslationInput).max(20).default([]),
  group: z.string().max(40).nullish(),
  /** places offered; -1 = unlimited */
  capacity: z.number().int().min(-1, 'TOO_SMALL').max(1_000_000, 'TOO_BIG').default(-1),
  minPerGuest: z.number().int().min(0, 'TOO_SMALL').max(1000, 'TOO_BIG').default(0),
  maxPerGuest: z.number().int().min(-1, 'TOO_SMALL').max(1000, 'TOO_BIG').default(-1),
})

export const TimeslotInput = z.object({
  id: z.number().int().positive().optional(),
  displayName: requiredText(200),
  dateInfo: optionalText(200),
  dateTimezoneInfo: optionalText(100),
  groupId: z.string().max(40).nullish(),
  capacity: z.number().int().min(-1, 'TOO_SMALL').max(1_000_000, 'TOO_BIG').default(-1),
})

export const FieldSettingsInput = z.object({
  birthday: z.boolean().optional(),
  minAge: z.number().int().min(0).max(150).nullish(),
  maxAge: z.number().int().min(0).max(150).nullish(),
  text: z.string().max(5000).nullish(),
  max: z.number().min(0).nullish(),
  hint: z.string().max(300).nullish(),
})

export const FieldInput = z
  .object({
    type: z.enum(FIELD_TYPES),
    defaultField: z.enum(DEFAULT_FIELD_CODES).nullish(),
    displayName: requiredText(200),
    translations: z.array(TranslationInput).max(20).default([]),
    appearance: z.enum(APPEARANCES).default('VISIBLE'),
    size: z.enum(SIZES).default('DEFAULT'),
    autocomplete: optionalText(60),
    conditions: z.array(ConditionInput).max(10).default([]),
    values: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
    customValue: z.boolean().default(false),
    multiple: z.boolean().default(false),
    amountSelection: z.boolean().default(false),
    maxPerGuest: z.number().int().min(-1, 'TOO_SMALL').max(1000, 'TOO_BIG').default(-1),
    hideUnavailable: z.boolean().default(false),
    hasDefinedGroups: z.boolean().default(false),
    showDefinedGroupsAsTabs: z.boolean().default(false),
    definedGroups: z.array(z.object({ id: z.string().trim().min(1).max(40), displayName: requiredText(100) })).max(20).default([]),
    definedValues: z.array(DefinedValueInput).max(200).default([]),
    timeslots: z.array(TimeslotInput).max(200).default([]),
    settings: FieldSettingsInput.default({}),
  })
  .superRefine((f, ctx) => {
    if (f.appearance === 'REQUIRED' && isDecoration(f)) ctx.addIssue({ code: 'custom', path: ['appearance'], message: 'APPEARANCE_NOT_ALLOWED' })
    if (f.type === 'DYNAMIC_DEFAULT_FIELD' && !f.defaultField) ctx.addIssue({ code: 'custom', path: ['defaultField'], message: 'REQUIRED' })
    if (f.type === 'LIST' && f.values.length === 0) ctx.addIssue({ code: 'custom', path: ['values'], message: 'REQUIRED' })
    if (f.type === 'SMARTLIST' && f.definedValues.length === 0) ctx.addIssue({ code: 'custom', path: ['definedValues'], message: 'REQUIRED' })
    if (f.type === 'TIMESLOT' && f.timeslots.length === 0) ctx.addIssue({ code: 'custom', path: ['timeslots'], message: 'REQUIRED' })
    if (new Set(f.values).size !== f.values.length) ctx.addIssue({ code: 'custom', path: ['values'], message: 'DUPLICATE' })
    const s = f.settings
    if (s.minAge != null && s.maxAge != null && s.maxAge < s.minAge) ctx.addIssue({ code: 'custom', path: ['settings', 'maxAge'], message: 'TOO_SMALL' })
    for (const [i, v] of f.definedValues.entries()) {
      if (v.maxPerGuest >= 0 && v.minPerGuest > v.maxPerGuest) ctx.addIssue({ code: 'custom', path: ['definedValues', i, 'maxPerGuest'], message: 'TOO_SMALL' })
    }
  })
export type FieldInput = z.infer<typeof FieldInput>

export const FieldOrderInput = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) })
export const FormSettingsInput = z.object({ waitingList: z.boolean() })
