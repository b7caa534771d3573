// Schemas of the document settings card (organiser settings, admin only), shared with the UI form.
import { z } from 'zod'
import { email, requiredText } from '../../shared/validation'

const pem = (max = 20_000) => z.string().trim().min(1, 'REQUIRED').max(max, 'TOO_LONG')
/** an omitted or empty key keeps the stored one; a new PEM replaces it */
const newSecret = (max = 20_000) => z.string().trim().max(max, 'TOO_LONG').optional()

export const AppleWalletInput = z.object({
  passTypeId: requiredText(200).pipe(z.string().regex(/^pass\.[A-Za-z0-9.-]+$/, 'INVALID')),
  teamId: requiredText(20).pipe(z.string().regex(/^[A-Z0-9]{10}$/, 'INVALID')),
  certificate: pem(),
  key: newSecret(),
  keyPassphrase: newSecret(500),
  wwdr: pem(),
})

export const GoogleWalletInput = z.object({
  issuerId: requiredText(40).pipe(z.string().regex(/^\d+$/, 'INVALID')),
  serviceAccount: email(),
  key: newSecret(),
})

export const DocumentSettingsInput = z.object({
  logoAssetId: z.number().int().positive().nullable().default(null),
  apple: AppleWalletInput.nullable().default(null),
  google: GoogleWalletInput.nullable().default(null),
})
export type DocumentSettingsInput = z.infer<typeof DocumentSettingsInput>

export const TokenParams = z.object({ token: z.string().max(100) })
export const DocumentParams = z.object({ token: z.string().max(100), document: z.string().max(40) })
