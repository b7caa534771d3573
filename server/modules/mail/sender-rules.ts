// The mail sender rules of agency-side.md §5, pure so the widget checks as the server does.
import type { FieldError } from '../../shared/validation'
import { LOCAL_PART, RESERVED_LOCAL_PARTS, type SenderChoice, splitPrefixes } from './settings-model'

export interface SenderDomainOption {
  /** the mail settings id, or null for SYSTEM / AGENCY */
  mailSettingsId: number | null
  /** SYSTEM, AGENCY or the domain name */
  domain: string
  prefixes: string[]
}

export interface SenderRuleContext {
  /** the server's own sending domain (the provider domain of §5) */
  systemDomain: string
  /** what the agency's mail settings offer: one option per SMTP domain and per DOMAIN entry */
  options: SenderDomainOption[]
  /** the licence has MAIL_CUSTOM_SENDER_NAME */
  customName: boolean
}

/** The options an agency's mail settings offer (SMTP: each of its domains; DOMAIN: its domain). */
export function domainOptions(settings: Array<{ id: number; type: string; domainName: string | null; prefix: string | null; smtpDomains: Array<{ name: string; prefix: string | null }> }>): SenderDomainOption[] {
  const out: SenderDomainOption[] = []
  for (const s of settings) {
    if (s.type === 'SMTP') for (const d of s.smtpDomains) out.push({ mailSettingsId: s.id, domain: d.name, prefixes: splitPrefixes(d.prefix) })
    else if (s.domainName) out.push({ mailSettingsId: s.id, domain: s.domainName, prefixes: splitPrefixes(s.prefix) })
  }
  return out
}

/** The full address a choice stands for, or null when it is the server's own sender. */
export function fullAddress(c: SenderChoice, systemDomain: string): string | null {
  if (!c.addressName) return null
  if (c.mailSettingsId == null && c.addressDomain === 'AGENCY') return `${c.addressName}@${systemDomain}`.toLowerCase()
  if (c.mailSettingsId != null && c.addressDomain) return `${c.addressName}@${c.addressDomain}`.toLowerCase()
  return null
}

/**
 * Field errors of one level's choice, keyed by the names the caller gives (agency and event/guest
 * level use different keys). Licence gates are the caller's: these are the form rules.
 */
export function senderFieldErrors(c: SenderChoice, ctx: SenderRuleContext, keys: { name: string; address: string; domain: string }): FieldError[] {
  const errors: FieldError[] = []
  if (c.senderName?.includes('@')) errors.push({ field: keys.name, errorType: 'SENDER_NAME_AT' })
  // an address on the agency's own domain should not go out under the server's name
  else if (!c.senderName && ctx.customName && c.mailSettingsId != null) errors.push({ field: keys.name, errorType: 'SENDER_NAME_REQUIRED' })

  const option = c.mailSettingsId != null ? ctx.options.find((o) => o.mailSettingsId === c.mailSettingsId && o.domain === c.addressDomain) : null
  if (c.mailSettingsId != null && !option) errors.push({ field: keys.domain, errorType: 'INVALID' })
  if (c.mailSettingsId == null && c.addressDomain != null && c.addressDomain !== 'SYSTEM' && c.addressDomain !== 'AGENCY') errors.push({ field: keys.domain, errorType: 'INVALID' })

  if (c.mailSettingsId != null && !c.addressName) errors.push({ field: keys.address, errorType: 'REQUIRED' })
  else if (c.addressDomain === 'AGENCY' && !c.addressName) errors.push({ field: keys.address, errorType: 'REQUIRED' })
  else if (c.addressName && !LOCAL_PART.test(c.addressName)) errors.push({ field: keys.address, errorType: 'INVALID_SENDER_ADDRESS' })
  else if (c.addressName) {
    const full = fullAddress(c, ctx.systemDomain)
    const local = c.addressName.toLowerCase()
    const atProvider = c.mailSettingsId == null || option?.domain === ctx.systemDomain.toLowerCase()
    if (!full || !/^[^@\s]+@[^@\s]+\.[^@\s]+$|^[^@\s]+@localhost$/.test(full) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) errors.push({ field: keys.address, errorType: 'INVALID_FULL_MAIL' })
    else if (atProvider && (RESERVED_LOCAL_PARTS as readonly string[]).includes(local)) errors.push({ field: keys.address, errorType: 'INVALID_FULL_MAIL' })
    else if (option && option.prefixes.length && !option.prefixes.some((p) => local.startsWith(p.toLowerCase()))) errors.push({ field: keys.address, errorType: 'SENDER_PREFIX' })
  }
  return errors
}
