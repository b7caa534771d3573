// Reports, support messages, feedback and the imprint (guest-side.md 2 "Report dialog", "Help centre
// and feedback", 3 "Report", "Support message", "Feedback", 5 report and support rules, 8 texts).
import { z } from 'zod'
import { optionalUrl } from '../events/model'
import { email, optionalText } from '../../shared/validation'

/** guest-side.md 9, in display order */
export const REPORT_TYPES = [
  'EVENT_RELATED',
  'CANCEL_EVENT',
  'FRAUD',
  'TERRORISM',
  'LEGAL_ABUSE_HATE',
  'SEXUAL_ABUSE',
  'LEGAL_ABUSE_TRAFFICKING',
  'LEGAL_ABUSE_VIOLENCE',
  'LEGAL_ABUSE_TRADE',
  'LEGAL_ABUSE_INFRINGEMENT',
  'LEGAL_ABUSE_OTHER',
] as const
export type ReportType = (typeof REPORT_TYPES)[number]
/** only with an event; step 2 shows the organiser's contact info instead of a form */
export const EVENT_REPORT_TYPES: readonly ReportType[] = ['EVENT_RELATED', 'CANCEL_EVENT']
/** go to the server's support address as well as to the agency (everything that is not about the event itself) */
export const isLegalReport = (t: ReportType) => !EVENT_REPORT_TYPES.includes(t)

export const reportTypesFor = (withEvent: boolean) =>
  REPORT_TYPES.filter((t) => withEvent || !EVENT_REPORT_TYPES.includes(t)).map((value) => ({
    value,
    translationKey: `report.type.${value}`,
    visible: true,
    showForm: !EVENT_REPORT_TYPES.includes(value),
  }))

const flag = () => z.boolean().default(false)
const name = () => z.string().trim().max(100, 'TOO_LONG').nullish()

/**
 * §5: reason required; unless SEXUAL_ABUSE, first and last name at least 2 characters, a valid e-mail
 * and confirmCorrectData ticked. For SEXUAL_ABUSE identity fields are cleared (not stored).
 */
export const ReportInput = z
  .object({
    reportType: z.enum(REPORT_TYPES, { error: 'REQUIRED' }),
    origin: optionalText(100),
    originUrl: optionalText(2000),
    eventId: z.number().int().positive().nullish(),
    eventName: optionalText(300),
    agencyId: z.number().int().positive().nullish(),
    agencyName: optionalText(300),
    important: flag(),
    sexualAbuse: flag(),
    reason: z.string().trim().min(1, 'REQUIRED').max(10_000, 'TOO_LONG'),
    firstName: name(),
    lastName: name(),
    email: z.string().trim().max(254, 'TOO_LONG').nullish(),
    submitIdentity: flag(),
    confirmCorrectData: flag(),
  })
  .superRefine((v, ctx) => {
    if (v.reportType === 'SEXUAL_ABUSE' || v.sexualAbuse) return
    if ((v.firstName ?? '').length < 2) ctx.addIssue({ code: 'custom', path: ['firstName'], message: (v.firstName ?? '') ? 'MIN_LENGTH_2' : 'REQUIRED' })
    if ((v.lastName ?? '').length < 2) ctx.addIssue({ code: 'custom', path: ['lastName'], message: (v.lastName ?? '') ? 'MIN_LENGTH_2' : 'REQUIRED' })
    if (!v.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'REQUIRED' })
    else if (!email().safeParse(v.email).success) ctx.addIssue({ code: 'custom', path: ['email'], message: 'INVALID_EMAIL' })
    if (!v.confirmCorrectData) ctx.addIssue({ code: 'custom', path: ['confirmCorrectData'], message: 'CHECKBOX_REQUIRED' })
  })
  .transform((v) => {
    const abuse = v.reportType === 'SEXUAL_ABUSE' || v.sexualAbuse
    return abuse ? { ...v, sexualAbuse: true, firstName: null, lastName: null, email: null, submitIdentity: false } : { ...v, email: v.email!.toLowerCase() }
  })
export type ReportInput = z.infer<typeof ReportInput>

export const ReportInfoQuery = z.object({ eventId: z.coerce.number().int().positive().optional() })

/** POST /api/public/report/support (the form adds agency, user e-mail, page and event itself) */
export const SupportInput = z.object({
  subject: z.string().trim().min(1, 'REQUIRED').max(200, 'TOO_LONG'),
  content: z.string().trim().min(1, 'REQUIRED').max(10_000, 'TOO_LONG'),
  originUrl: optionalText(2000),
  state: optionalText(200),
  dialog: optionalText(200),
  additionalData: z.union([z.string().max(5000, 'TOO_LONG'), z.record(z.string(), z.unknown())]).nullish(),
  eventName: optionalText(300),
  eventId: z.number().int().positive().nullish(),
  agencyId: z.number().int().positive().nullish(),
})
export type SupportInput = z.infer<typeof SupportInput>

/** POST /api/public/feedback: message required, name and e-mail optional */
export const FeedbackInput = z.object({
  name: optionalText(100),
  email: z
    .string()
    .trim()
    .max(254, 'TOO_LONG')
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v == null || email().safeParse(v).success, 'INVALID_EMAIL'),
  page: optionalText(2000),
  message: z.string().trim().min(1, 'REQUIRED').max(5000, 'TOO_LONG'),
  /** einlass extension: the event the feedback is about (then it goes to its agency) */
  eventId: z.number().int().positive().nullish(),
})
export type FeedbackInput = z.infer<typeof FeedbackInput>

/** The agency's imprint and privacy notice: a text (rich text, sanitised) or an address, or both */
export const ImprintInput = z.object({
  imprintText: z.string().max(50_000, 'TOO_LONG').nullish(),
  imprintUrl: optionalUrl(),
  privacyText: z.string().max(50_000, 'TOO_LONG').nullish(),
  privacyUrl: optionalUrl(),
  /** the organiser contact the report dialog shows for event-related types (step 2) */
  contactGuest: optionalText(200),
  contactGuestPhone: optionalText(50),
  contactGuestMail: z
    .string()
    .trim()
    .max(254, 'TOO_LONG')
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
    .refine((v) => v == null || email().safeParse(v).success, 'INVALID_EMAIL'),
})
export type ImprintInput = z.infer<typeof ImprintInput>

export const ReportSearch = z.object({ page: z.coerce.number().int().min(0).default(0), perPage: z.coerce.number().int().min(1).max(100).default(20) })
