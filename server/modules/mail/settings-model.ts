// Mail settings and the mail sender (agency-side.md §3, §5, §7): the schemas the routes and the UI share.
import { z } from 'zod'
import { requiredText } from '../../shared/validation'

export const SMTP_TLS_MODES = ['NONE', 'STARTTLS', 'TLS'] as const
export const MAIL_SETTINGS_PAGE_SIZE = 100000
/** the provider's own addresses no agency may send as (§5), at the provider (system) domain */
export const RESERVED_LOCAL_PARTS = ['info', 'kontakt', 'support', 'notfall'] as const
export const LOCAL_PART = /^[A-Za-z0-9._-]+$/
const DOMAIN = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export const domainName = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(253, 'TOO_LONG')
    .regex(DOMAIN, 'INVALID_DOMAIN')

/** allowed local-part prefixes, comma-separated ("events-, tickets-"); empty = any local part */
export const prefixList = () =>
  z
    .string()
    .trim()
    .max(200, 'TOO_LONG')
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v == null || splitPrefixes(v).every((p) => LOCAL_PART.test(p)), 'INVALID_PREFIX')

export const splitPrefixes = (v: string | null | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)

const SmtpDomain = z.object({ name: domainName(), prefix: prefixList() })

export const SmtpSettingsInput = z.object({
  type: z.literal('SMTP'),
  displayName: requiredText(120),
  host: z.string().trim().min(1, 'REQUIRED').max(253, 'TOO_LONG').regex(/^[A-Za-z0-9.-]+$|^\[?[0-9a-fA-F:]+\]?$/, 'INVALID'),
  port: z.number().int().min(1, 'INVALID').max(65535, 'INVALID'),
  tlsMode: z.enum(SMTP_TLS_MODES),
  user: z
    .string()
    .trim()
    .max(320, 'TOO_LONG')
    .nullish()
    .transform((v) => v || null),
  /** absent on an update: the stored one stays; '' removes it */
  password: z.string().max(500, 'TOO_LONG').nullish(),
  smtpDomains: z.array(SmtpDomain).min(1, 'REQUIRED').max(20, 'TOO_BIG'),
})

export const DomainSettingsInput = z.object({
  type: z.literal('DOMAIN'),
  displayName: requiredText(120),
  domainName: domainName(),
  prefix: prefixList(),
})

export const MailSettingsInput = z.discriminatedUnion('type', [SmtpSettingsInput, DomainSettingsInput])
export type MailSettingsInput = z.infer<typeof MailSettingsInput>

export const MailSettingsSearch = z.object({
  search: z.string().trim().max(120).optional(),
  paging: z
    .object({ page: z.number().int().min(0).default(0), perPage: z.number().int().min(1).max(MAIL_SETTINGS_PAGE_SIZE).default(MAIL_SETTINGS_PAGE_SIZE) })
    .default({ page: 0, perPage: MAIL_SETTINGS_PAGE_SIZE }),
})

/** SYSTEM, AGENCY, or (with a mailSettingsId) the chosen domain's name */
const addressDomain = z.string().trim().max(253, 'TOO_LONG').nullish()
const senderName = z
  .string()
  .trim()
  .max(120, 'TOO_LONG')
  .nullish()
  .transform((v) => v || null)
const addressName = z
  .string()
  .trim()
  .max(64, 'TOO_LONG')
  .nullish()
  .transform((v) => v || null)

/** Agency level (§3): the agency's own keys. */
export const AgencySenderInput = z.object({
  mailCustomSenderName: senderName,
  mailCustomSenderAddressName: addressName,
  mailCustomSenderAddressDomain: addressDomain,
  mailSettingsId: z.number().int().positive().nullish(),
})
export type AgencySenderInput = z.infer<typeof AgencySenderInput>

/** Event or visitor level (§3): override off = the level above applies. */
export const LevelSenderInput = z.object({
  override: z.boolean(),
  mailSender: senderName,
  mailSenderAddressName: addressName,
  mailSenderAddressDomain: addressDomain,
  mailSettingsId: z.number().int().positive().nullish(),
})
export type LevelSenderInput = z.infer<typeof LevelSenderInput>

/** One level's sender as stored, in neutral names. */
export interface SenderChoice {
  senderName: string | null
  addressName: string | null
  /** SYSTEM, AGENCY or a domain name (with mailSettingsId) */
  addressDomain: string | null
  mailSettingsId: number | null
}
