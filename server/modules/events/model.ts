// Event shapes shared by the organiser forms and the server.
import { z } from 'zod'
import { isTimeZone } from '../../i18n/format'
import { isCountryCode } from '../forms/countries'
import { optionalText, requiredText } from '../../shared/validation'

export const VISIBILITIES = ['PUBLIC', 'PRIVATE', 'OFFLINE'] as const
export const EVENT_STATUSES = ['OK', 'PRESET', 'GLOBAL_PRESET', 'DELETED'] as const
export const PRESET_STATUSES = ['PRESET', 'GLOBAL_PRESET'] as const
export const EVENT_TYPES = ['ON_SITE', 'ONLINE'] as const
export const CHECKIN_TARGETS = ['NONE', 'EVENT_PAGE', 'MEETING_URL', 'CUSTOM'] as const
export const CURRENCIES = ['EURO', 'CHF'] as const
export const REGISTRATION_BUTTON_TYPES = ['SEND', 'REGISTER'] as const
export const COVID_STATES = ['UNKNOWN', 'NOTHING', 'VACCINATED', 'RECOVERED', 'TESTED'] as const
export const EVENT_OPTIONS = ['CAN_EDIT_REGISTRATION_DATA'] as const
export const ARCHIVED_FILTERS = ['SHOW_ALL', 'HIDE_ARCHIVED', 'ONLY_ARCHIVED'] as const
export const PHONE_LOCALES = ['de', 'at', 'ch', 'gb', 'us', 'fr', 'it', 'es', 'nl', 'pl', 'cz', 'dk', 'be', 'lu'] as const

const instant = () => z.iso.datetime({ offset: true, error: 'INVALID_DATE' })
const color = () =>
  z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{6})?$/, 'INVALID')
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
/** http(s) links only: they end up in guests' mails and pages */
export const optionalUrl = (max = 1000) =>
  z
    .string()
    .trim()
    .max(max, 'TOO_LONG')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'INVALID_URL')
    .nullish()
    .transform((v) => (v ? v : null))
const ids = () => z.array(z.number().int().positive()).max(200).default([])

export const EventInput = z
  .object({
    displayName: requiredText(200),
    subTitle: optionalText(300),
    /** rich text (HTML); the server sanitises it */
    description: optionalText(50000),
    startDate: instant(),
    endDate: instant(),
    timezone: z.string().min(1).max(64).refine(isTimeZone, 'INVALID_TIMEZONE').default('Europe/Berlin'),
    eventType: z.enum(EVENT_TYPES).default('ON_SITE'),
    visibility: z.enum(VISIBILITIES).default('PUBLIC'),
    locationName: optionalText(200),
    street: optionalText(200),
    streetNumber: optionalText(20),
    postCode: optionalText(20),
    city: optionalText(120),
    country: optionalText(3).refine((v) => v == null || isCountryCode(v), 'INVALID'),
    meetingUrl: optionalUrl(),
    primaryColor: color(),
    accentColor: color(),
    imageAssetId: z.number().int().positive().nullish().transform((v) => v ?? null),
    /** persons the event admits (main guests and escorts); null = unlimited */
    maxVisitors: z.number().int().min(1, 'TOO_SMALL').max(1_000_000, 'TOO_BIG').nullable().default(null),
    /** persons per registration; -1 = unlimited */
    maxVisitorPerSubscription: z.number().int().min(-1).max(100).default(-1),
    useDate: z.boolean().default(false),
    registrationFrom: instant().nullable().default(null),
    registrationUntil: instant().nullable().default(null),
    requireApproval: z.boolean().default(false),
    hideDeclineButton: z.boolean().default(false),
    useReporting: z.boolean().default(false),
    disabledCovidStates: z.array(z.enum(COVID_STATES)).max(5).default([]),
    currency: z.enum(CURRENCIES).default('EURO'),
    registrationButtonType: z.enum(REGISTRATION_BUTTON_TYPES).default('SEND'),
    externalConfirmationLink: optionalUrl(),
    externalConfirmationLabel: optionalText(100),
    defaultPhoneLocale: z.string().trim().toLowerCase().regex(/^[a-z]{2}$/, 'INVALID').default('de'),
    lockBasicData: z.boolean().default(false),
    allowSelfCheckin: z.boolean().default(false),
    allowSelfCheckout: z.boolean().default(false),
    checkinOpenDate: instant().nullable().default(null),
    checkinTarget: z.enum(CHECKIN_TARGETS).default('NONE'),
    checkinUrl: optionalUrl(),
    options: z.array(z.enum(EVENT_OPTIONS)).max(10).default([]),
    /** guests may pass their place to someone else (guest portal) until transferUntil (null: the event's start) */
    allowTransfer: z.boolean().default(false),
    transferUntil: instant().nullable().default(null),
    tags: ids(),
    campaigns: ids(),
  })
  .superRefine((v, ctx) => {
    if (new Date(v.endDate) < new Date(v.startDate)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'END_BEFORE_START' })
    if (v.registrationFrom && v.registrationUntil && new Date(v.registrationUntil) < new Date(v.registrationFrom)) {
      ctx.addIssue({ code: 'custom', path: ['registrationUntil'], message: 'END_BEFORE_START' })
    }
    if (v.checkinTarget === 'CUSTOM' && !v.checkinUrl) ctx.addIssue({ code: 'custom', path: ['checkinUrl'], message: 'REQUIRED' })
    if (v.checkinTarget === 'MEETING_URL' && !v.meetingUrl) ctx.addIssue({ code: 'custom', path: ['meetingUrl'], message: 'REQUIRED' })
  })
export type EventInput = z.infer<typeof EventInput>

const dateOrInstant = () => z.union([z.iso.date({ error: 'INVALID_DATE' }), instant()], { error: 'INVALID_DATE' })

/** The event filter of agency-side.md section 3. */
export const EventFilter = z
  .object({
    onlyTodayEvents: z.boolean().default(false),
    startDate: dateOrInstant().nullish(),
    endDate: dateOrInstant().nullish(),
    tags: ids(),
    campaigns: ids(),
    visibility: z.enum(VISIBILITIES).nullish(),
    visibilities: z.array(z.enum(VISIBILITIES)).max(3).default([]),
    status: z.union([z.enum(EVENT_STATUSES), z.array(z.enum(EVENT_STATUSES)).max(4)]).nullish(),
    onlyShowUncomplete: z.boolean().default(false),
    showDeleted: z.boolean().default(false),
    archivedFilter: z.enum(ARCHIVED_FILTERS).default('HIDE_ARCHIVED'),
  })
  .superRefine((v, ctx) => {
    if (v.startDate && v.endDate && v.endDate.slice(0, 10) < v.startDate.slice(0, 10)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'END_BEFORE_START' })
  })
export type EventFilter = z.infer<typeof EventFilter>

/** `upcoming`: events not yet over first, the next on top, then past ones, the latest first (the list's order) */
export const EVENT_SORT_FIELDS = ['startDate', 'displayName', 'createdAt', 'upcoming'] as const
export const EventSearch = z.object({
  filter: EventFilter.default(EventFilter.parse({})),
  search: z.string().trim().max(200).optional(),
  sort: z.object({ field: z.enum(EVENT_SORT_FIELDS).default('startDate'), direction: z.enum(['asc', 'desc']).default('desc') }).default({ field: 'startDate', direction: 'desc' }),
  page: z.number().int().min(0).default(0),
  perPage: z.number().int().min(1).max(500).default(50),
})
export type EventSearch = z.infer<typeof EventSearch>

export const EventCopyInput = z.object({
  displayName: optionalText(200),
  /** OK: a new event; PRESET/GLOBAL_PRESET: save as a template (EVENT_PRESET) */
  status: z.enum(['OK', 'PRESET', 'GLOBAL_PRESET']).default('OK'),
})
export type EventCopyInput = z.infer<typeof EventCopyInput>

export const EmbedQuery = z.object({
  hideCookieinfo: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  scrollId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_-]*$/, 'INVALID')
    .optional(),
  height: z.coerce.number().int().min(100).max(5000).default(450),
})
