// Vendor tool: issues a signed einlass license file.
//
//   bun scripts/license-sign.ts --key PRIVATE_KEY.pem --licensee "Agentur GmbH" --valid-until 2027-12-31 \
//     [--features MULTI_LANGUAGE,MAIL_CUSTOM] [--events 50] [--guest-accounts 10000] \
//     [--agency-users 10] [--storage-mb 10240] [--id LICENSE-ID] [--out license.json]
//
// The private key (Ed25519, PEM) is read from the file given; it is never part of this repository.
// Make a key pair with: openssl genpkey -algorithm ed25519 -out private.pem
//                       openssl pkey -in private.pem -pubout        (the public half goes into keys.ts)
// Limits: a whole number or -1 for unlimited; defaults are the community edition's.
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseFlags } from '../server/config/config'
import { COMMUNITY_LIMITS, KNOWN_FEATURES, type LicenseBody, signLicense, verifyLicenseText } from '../server/modules/license/license'
import { createPublicKey } from 'node:crypto'

function fail(message: string): never {
  console.error(`license-sign: ${message}`)
  process.exit(2)
}

const { flags, rest } = parseFlags(process.argv.slice(2))
if (flags.has('--help') || rest.length) {
  console.log(readFileSync(import.meta.path, 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'))
  process.exit(rest.length ? 2 : 0)
}
const keyFile = flags.get('--key') ?? fail('--key PRIVATE_KEY.pem is required')
if (!existsSync(keyFile)) fail(`--key: file not found: ${keyFile}`)
const licensee = flags.get('--licensee')?.trim() || fail('--licensee is required')
const validUntil = flags.get('--valid-until') ?? fail('--valid-until YYYY-MM-DD is required')
if (!/^\d{4}-\d{2}-\d{2}$/.test(validUntil) || Number.isNaN(Date.parse(validUntil))) fail(`--valid-until: not a date (YYYY-MM-DD): "${validUntil}"`)
const features = (flags.get('--features') ?? '').split(',').map((f) => f.trim()).filter(Boolean)
for (const f of features) if (!(KNOWN_FEATURES as readonly string[]).includes(f)) fail(`--features: unknown feature "${f}" (known: ${KNOWN_FEATURES.join(', ')})`)

const limit = (flag: string, fallback: number) => {
  const v = flags.get(flag)
  if (v === undefined) return fallback
  if (!/^-?\d+$/.test(v) || Number(v) < -1) fail(`${flag}: a whole number, or -1 for unlimited: "${v}"`)
  return Number(v)
}
const body: LicenseBody = {
  id: flags.get('--id') ?? randomUUID(),
  licensee,
  issuedAt: new Date().toISOString().slice(0, 10),
  validUntil,
  features: [...new Set(features)],
  limits: {
    events: limit('--events', COMMUNITY_LIMITS.events),
    guestAccounts: limit('--guest-accounts', COMMUNITY_LIMITS.guestAccounts),
    agencyUsers: limit('--agency-users', COMMUNITY_LIMITS.agencyUsers),
    storageMb: limit('--storage-mb', COMMUNITY_LIMITS.storageMb),
  },
}

const pem = readFileSync(keyFile, 'utf8')
let file: ReturnType<typeof signLicense>
try {
  file = signLicense(body, pem)
} catch (e) {
  fail(`--key: not an Ed25519 private key in PEM form (${(e as Error).message})`)
}
const text = `${JSON.stringify(file, null, 2)}\n`
// check the result against the key's own public half before handing it out
const publicPem = createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString()
const check = verifyLicenseText(text, [publicPem], new Date(0))
if (!check.ok) fail(`the signed file does not verify: ${check.reason}`)

const out = flags.get('--out')
if (out) {
  writeFileSync(out, text)
  console.error(`license-sign: wrote ${out} for ${licensee}, valid until ${validUntil}`)
} else process.stdout.write(text)
