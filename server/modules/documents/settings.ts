// The agency's document settings: logo and wallet credentials. Private keys are sealed with the data
// dir's key (identity/secret-box.ts) and never sent back; certificates are checked against their keys
// before they are stored, so a guest never meets a pass that cannot be signed.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { fieldError } from '../../shared/errors'
import { findAsset } from '../assets/service'
import { open, seal } from '../identity/secret-box'
import type { DocumentSettingsRow } from './documents.table'
import type { DocumentSettingsInput } from './model'
import { walletOf } from './tokens'

export function settingsDto(r: DocumentSettingsRow | undefined) {
  const w = r ? walletOf(r) : { apple: false, google: false }
  return {
    logoAssetId: r?.logo_asset_id ?? null,
    apple: r?.apple_pass_type_id
      ? { passTypeId: r.apple_pass_type_id, teamId: r.apple_team_id, certificate: r.apple_certificate, wwdr: r.apple_wwdr, keyStored: Boolean(r.apple_key_sealed), passphraseStored: Boolean(r.apple_key_passphrase_sealed) }
      : null,
    google: r?.google_issuer_id ? { issuerId: r.google_issuer_id, serviceAccount: r.google_service_account, keyStored: Boolean(r.google_key_sealed) } : null,
    appleConfigured: w.apple,
    googleConfigured: w.google,
  }
}

export async function readSettings(ctx: AppContext, agencyId: number) {
  return settingsDto(await ctx.db.selectFrom('document_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst())
}

const invalid = (field: string) => fieldError([{ field, errorType: 'WALLET_CERTIFICATE_INVALID' }])

function certificate(pem: string, field: string): X509Certificate {
  try {
    return new X509Certificate(pem)
  } catch {
    throw invalid(field)
  }
}

export async function saveSettings(ctx: AppContext, agencyId: number, input: DocumentSettingsInput) {
  const current = await ctx.db.selectFrom('document_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst()
  if (input.logoAssetId != null) {
    const a = await findAsset(ctx.db, input.logoAssetId).catch(() => null)
    if (!a || a.agency_id !== agencyId || !a.mime_type.startsWith('image/')) throw fieldError([{ field: 'logoAssetId', errorType: 'INVALID' }])
  }
  const row: Omit<DocumentSettingsRow, 'agency_id'> = {
    logo_asset_id: input.logoAssetId,
    apple_pass_type_id: null,
    apple_team_id: null,
    apple_certificate: null,
    apple_key_sealed: null,
    apple_key_passphrase_sealed: null,
    apple_wwdr: null,
    google_issuer_id: null,
    google_service_account: null,
    google_key_sealed: null,
    updated_at: isoNow(ctx.clock.now()),
  }
  if (input.apple) {
    const a = input.apple
    const cert = certificate(a.certificate, 'apple.certificate')
    certificate(a.wwdr, 'apple.wwdr')
    const key = a.key || (current?.apple_key_sealed ? open(ctx.secrets, current.apple_key_sealed) : null)
    if (!key) throw fieldError([{ field: 'apple.key', errorType: 'REQUIRED' }])
    const passphrase = a.key ? a.keyPassphrase || null : a.keyPassphrase || (current?.apple_key_passphrase_sealed ? open(ctx.secrets, current.apple_key_passphrase_sealed) : null)
    try {
      const k = createPrivateKey({ key, passphrase: passphrase ?? undefined })
      if (!cert.checkPrivateKey(k)) throw new Error('key does not belong to the certificate')
    } catch {
      throw invalid('apple.key')
    }
    Object.assign(row, {
      apple_pass_type_id: a.passTypeId,
      apple_team_id: a.teamId,
      apple_certificate: a.certificate,
      apple_wwdr: a.wwdr,
      apple_key_sealed: seal(ctx.secrets, key),
      apple_key_passphrase_sealed: passphrase ? seal(ctx.secrets, passphrase) : null,
    })
  }
  if (input.google) {
    const g = input.google
    const stored = current?.google_key_sealed ? open(ctx.secrets, current.google_key_sealed) : null
    let pkcs8: string
    try {
      const k = createPrivateKey(g.key || stored || '')
      if (k.asymmetricKeyType !== 'rsa') throw new Error('RS256 needs an RSA key')
      // jose reads PKCS#8; a pasted PKCS#1 key ("BEGIN RSA PRIVATE KEY") is stored converted
      pkcs8 = k.export({ type: 'pkcs8', format: 'pem' }).toString()
    } catch {
      if (!g.key && !stored) throw fieldError([{ field: 'google.key', errorType: 'REQUIRED' }])
      throw invalid('google.key')
    }
    Object.assign(row, { google_issuer_id: g.issuerId, google_service_account: g.serviceAccount, google_key_sealed: seal(ctx.secrets, pkcs8) })
  }
  await ctx.db
    .insertInto('document_settings')
    .values({ agency_id: agencyId, ...row })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet(row))
    .execute()
  return readSettings(ctx, agencyId)
}

