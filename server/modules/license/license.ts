// Signed license files of the server edition.
// File format (JSON): { "license": { id, licensee, issuedAt, validUntil, features[], limits{} },
//                       "signature": base64 Ed25519 signature over canonicalJson(license) }
// A missing, tampered or expired license never stops the server: it runs on COMMUNITY defaults
// and logs one line saying why.
import { createPublicKey, createPrivateKey, sign, verify } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'

/** The features a license grants (the spec's feature gates, agency-side.md §6, and the entry-pass variant). */
export const LICENSED_FEATURES = ['SYSTEM_COVIDOO', 'MAIL_CUSTOM', 'MAIL_CUSTOM_SENDER_NAME', 'MULTI_LANGUAGE', 'EVENT_PRESET', 'MEDIA_GALLERY'] as const

/**
 * Features of every edition, community included (README, Editions; issue 20 item 27): ticket sales,
 * seat plans, wallet tickets (once the Apple/Google settings are made) and reporting. They work
 * without a license and the license page lists them as included; a license naming them changes
 * nothing. einlass's own keys: the spec gates none of them.
 */
export const EDITION_FEATURES = ['TICKETING', 'SEATING', 'WALLET', 'REPORTING'] as const

/** Every feature key a license file may name (the vendor's signing tool refuses others). */
export const KNOWN_FEATURES = [...LICENSED_FEATURES, ...EDITION_FEATURES] as const

export interface LicenseLimits {
  events: number
  guestAccounts: number
  agencyUsers: number
  storageMb: number
}

/** What a server without a valid license may do. Documented in README.md (Editions). */
export const COMMUNITY_LIMITS: LicenseLimits = { events: 5, guestAccounts: 1000, agencyUsers: 3, storageMb: 1024 }

const LicenseBody = z.object({
  id: z.string().min(1),
  licensee: z.string().min(1),
  issuedAt: z.string().min(1),
  validUntil: z.iso.date(),
  features: z.array(z.string()),
  limits: z.object({
    events: z.number().int().min(-1),
    guestAccounts: z.number().int().min(-1),
    agencyUsers: z.number().int().min(-1),
    storageMb: z.number().int().min(-1),
  }),
})
export type LicenseBody = z.infer<typeof LicenseBody>

const LicenseFile = z.object({ license: LicenseBody, signature: z.string().min(1) })

/** Why the community defaults apply; the UI shows a German text per code. */
export type LicenseProblem = 'NO_FILE' | 'FILE_NOT_FOUND' | 'UNREADABLE' | 'NOT_JSON' | 'MALFORMED' | 'BAD_SIGNATURE' | 'EXPIRED'

export interface LicenseState {
  edition: 'licensed' | 'community'
  licensee: string | null
  validUntil: string | null
  features: string[]
  /** -1 means unlimited */
  limits: LicenseLimits
  /** why the community defaults apply (null when licensed), one line for the log */
  reason: string | null
  problem: LicenseProblem | null
  file: string | null
}

export const COMMUNITY: LicenseState = {
  edition: 'community',
  licensee: null,
  validUntil: null,
  features: [],
  limits: COMMUNITY_LIMITS,
  reason: 'no license file',
  problem: 'NO_FILE',
  file: null,
}

/** JSON with object keys sorted at every level, so signer and verifier hash the same bytes. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as any)[k])}`).join(',')}}`
  }
  return JSON.stringify(v)
}

export function signLicense(body: LicenseBody, privateKeyPem: string): { license: LicenseBody; signature: string } {
  const key = createPrivateKey(privateKeyPem)
  const signature = sign(null, Buffer.from(canonicalJson(body)), key).toString('base64')
  return { license: body, signature }
}

export type VerifyResult = { ok: true; license: LicenseBody } | { ok: false; reason: string; problem: LicenseProblem; license?: LicenseBody }

export function verifyLicenseText(text: string, publicKeys: string[], now: Date = new Date()): VerifyResult {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'license file is not valid JSON', problem: 'NOT_JSON' }
  }
  const parsed = LicenseFile.safeParse(json)
  if (!parsed.success) {
    const i = parsed.error.issues[0]
    return { ok: false, reason: `license file is malformed (${i.path.join('.') || 'root'}: ${i.message})`, problem: 'MALFORMED' }
  }
  const { license, signature } = parsed.data
  const data = Buffer.from(canonicalJson(license))
  const sig = Buffer.from(signature, 'base64')
  const trusted = publicKeys.some((pem) => {
    try {
      return verify(null, data, createPublicKey(pem), sig)
    } catch {
      return false
    }
  })
  if (!trusted) return { ok: false, reason: 'license signature does not match (file changed or not issued for einlass)', problem: 'BAD_SIGNATURE' }
  // valid through the whole last day (UTC)
  if (new Date(`${license.validUntil}T23:59:59.999Z`).getTime() < now.getTime()) {
    return { ok: false, reason: `license expired on ${license.validUntil}`, problem: 'EXPIRED', license }
  }
  return { ok: true, license }
}

export function loadLicense(file: string | null, publicKeys: string[], now: Date = new Date()): LicenseState {
  if (!file) return COMMUNITY
  if (!existsSync(file)) return { ...COMMUNITY, reason: `license file not found: ${file}`, problem: 'FILE_NOT_FOUND', file }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    return { ...COMMUNITY, reason: `license file cannot be read: ${(e as Error).message}`, problem: 'UNREADABLE', file }
  }
  return licenseOfText(text, file, publicKeys, now)
}

/** The license state of a license text; `source` names where it came from (a file, or the database). */
export function licenseOfText(text: string, source: string, publicKeys: string[], now: Date = new Date()): LicenseState {
  const file = source
  const r = verifyLicenseText(text, publicKeys, now)
  // an expired license still names its holder and end date (shown on the license page)
  if (!r.ok) return { ...COMMUNITY, licensee: r.license?.licensee ?? null, validUntil: r.license?.validUntil ?? null, reason: r.reason, problem: r.problem, file }
  return {
    edition: 'licensed',
    licensee: r.license.licensee,
    validUntil: r.license.validUntil,
    features: r.license.features,
    limits: r.license.limits,
    reason: null,
    problem: null,
    file,
  }
}

/** Whether the server may do f: an edition feature always, a licensed one when the license lists it. */
export const hasFeature = (l: LicenseState, f: string) => (EDITION_FEATURES as readonly string[]).includes(f) || l.features.includes(f)
