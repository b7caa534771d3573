// Event shapes shared by the organiser forms and the server.
import { z } from 'zod'
import { optionalText, requiredText } from '../../shared/validation'

export const VISIBILITIES = ['PUBLIC', 'PRIVATE', 'OFFLINE'] as const
export const EVENT_STATUSES = ['OK', 'PRESET', 'GLOBAL_PRESET', 'DELETED'] as const
export const EVENT_TYPES = ['ON_SITE', 'ONLINE'] as const

const instant = () => z.iso.datetime({ offset: true, error: 'INVALID_DATE' })

export const EventInput = z
  .object({
    displayName: requiredText(200),
    subTitle: optionalText(300),
    description: optionalText(20000),
    startDate: instant(),
    endDate: instant(),
    timezone: z.string().min(1).max(64).default('Europe/Berlin'),
    eventType: z.enum(EVENT_TYPES).default('ON_SITE'),
    visibility: z.enum(VISIBILITIES).default('PUBLIC'),
    locationName: optionalText(200),
    street: optionalText(200),
    streetNumber: optionalText(20),
    postCode: optionalText(20),
    city: optionalText(120),
    country: optionalText(3),
    meetingUrl: optionalText(500),
    /** persons the event admits (main guests and escorts); null = unlimited */
    maxVisitors: z.number().int().min(1, 'TOO_SMALL').max(1_000_000, 'TOO_BIG').nullable().default(null),
    maxVisitorPerSubscription: z.number().int().min(-1).max(100).default(-1),
    useDate: z.boolean().default(false),
    registrationFrom: instant().nullable().default(null),
    registrationUntil: instant().nullable().default(null),
    requireApproval: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (new Date(v.endDate) < new Date(v.startDate)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'END_BEFORE_START' })
    if (v.registrationFrom && v.registrationUntil && new Date(v.registrationUntil) < new Date(v.registrationFrom)) {
      ctx.addIssue({ code: 'custom', path: ['registrationUntil'], message: 'END_BEFORE_START' })
    }
  })
export type EventInput = z.infer<typeof EventInput>
