// The account area: the current user, their accounts and profile, settings, password, intro keys.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { availableLanguages } from '../../i18n/languages'
import { AppError, fieldError, forbidden, notFound } from '../../shared/errors'
import { issuesToFields } from '../../shared/validation'
import { storeUpload } from '../assets/service'
import type { SelfActor } from './auth'
import { accountDto, canEditAccount, userDto } from './dto'
import { type AccountProfileBody, DESIGNS, PasswordChangeBody, type UserPatchBody } from './model'
import { provideGuestAccounts } from './guest-accounts'
import { PASSWORD_RESET } from './password-reset'
import { hashPassword, requirePasswordOf } from './passwords'
import { listAccountsOfUser } from './repository'
import { isGuestRole } from './roles'
import { invalidateUserSessions } from './session'
import { enabledMethods } from './tfa'
import type { z } from 'zod'

export async function currentUserDto(ctx: AppContext, actor: SelfActor) {
  const [accounts, methods] = await Promise.all([listAccountsOfUser(ctx.db, actor.user.id), enabledMethods(ctx.db, actor.user.id)])
  const current = actor.account ? (accounts.find((a) => a.id === actor.account!.id) ?? null) : null
  return userDto(actor.user, current, accounts, methods.length > 0)
}

export async function accountsOf(ctx: AppContext, userId: number) {
  const accounts = await listAccountsOfUser(ctx.db, userId)
  return accounts.map((a) => accountDto(a, ctx.license.features))
}

/** The current password is asked from everyone who has one (organisers, guests, guest-link sessions). */
export function currentPasswordRequired(actor: SelfActor, _isAccount: boolean): boolean {
  // Whoever holds the session must know the password to change it (issue 9: a stolen session must
  // not take the account over); only a user who has none yet sets one without it.
  return !!actor.user.password_hash
}

export async function patchUser(ctx: AppContext, actor: SelfActor, id: number, body: z.infer<typeof UserPatchBody>) {
  if (id !== actor.user.id) throw notFound()
  const changes: { language?: string; design?: string | null } = {}
  const fields = []
  if (body.language !== undefined) {
    if (!availableLanguages(ctx.license.features).some((l) => l.code === body.language)) fields.push({ field: 'language', errorType: 'INVALID' })
    else changes.language = body.language
  }
  if (body.design !== undefined) {
    if (body.design !== null && !(DESIGNS as readonly string[]).includes(body.design)) fields.push({ field: 'design', errorType: 'INVALID' })
    else changes.design = body.design
  }
  if (fields.length) throw fieldError(fields)

  const wantsPassword = body.password !== undefined || body.passwordRepeat !== undefined || body.currentPassword !== undefined
  let passwordChanged = false
  let loggedOut = false
  if (wantsPassword) {
    const parsed = PasswordChangeBody.safeParse(body)
    if (!parsed.success) throw fieldError(issuesToFields(parsed.error.issues))
    const accounts = await listAccountsOfUser(ctx.db, actor.user.id)
    const isAccount = accounts.some((a) => !isGuestRole(a.user_role))
    if (currentPasswordRequired(actor, isAccount)) {
      await requirePasswordOf(ctx, actor.user, parsed.data.currentPassword, 'current')
    }
    const hash = await hashPassword(parsed.data.password)
    await ctx.db.transaction().execute(async (trx) => {
      // a guest's first password: their guest accounts come with it, or neither (guest-accounts.ts)
      if (!actor.user.password_hash && !isAccount) await provideGuestAccounts(ctx, trx, actor.user.id)
      await trx
        .updateTable('app_user')
        .set({ password_hash: hash, password_changed_at: isoNow(ctx.clock.now()), updated_at: isoNow(ctx.clock.now()), ...changes })
        .where('id', '=', actor.user.id)
        .execute()
      if (parsed.data.removeTokens) {
        // log out all devices: every session including this one, and every guest link
        await invalidateUserSessions(ctx, actor.user.id, undefined, trx)
        await trx.deleteFrom('access_token').where('user_id', '=', actor.user.id).execute()
      } else {
        // a new password always ends the other sessions
        await invalidateUserSessions(ctx, actor.user.id, actor.session?.id, trx)
        // and any reset link still travelling in a mailbox
        await trx.deleteFrom('access_token').where('user_id', '=', actor.user.id).where('purpose', '=', PASSWORD_RESET).execute()
      }
    })
    passwordChanged = true
    loggedOut = Boolean(parsed.data.removeTokens)
  } else if (Object.keys(changes).length) {
    await ctx.db
      .updateTable('app_user')
      .set({ ...changes, updated_at: isoNow(ctx.clock.now()) })
      .where('id', '=', actor.user.id)
      .execute()
  }
  const user = await ctx.db.selectFrom('app_user').selectAll().where('id', '=', actor.user.id).executeTakeFirstOrThrow()
  return { user: await currentUserDto(ctx, { ...actor, user }), passwordChanged, loggedOut }
}

export async function patchAccount(ctx: AppContext, actor: SelfActor, id: number, input: z.infer<typeof AccountProfileBody>) {
  const accounts = await listAccountsOfUser(ctx.db, actor.user.id)
  const account = accounts.find((a) => a.id === id)
  if (!account) throw notFound()
  if (!canEditAccount(account, ctx.license.features)) throw forbidden()
  if (account.status !== 'OK') throw new AppError(409, 'ACCOUNT_NOT_ACTIVATED')
  if (input.imageId != null) {
    const img = await imageOf(ctx, input.imageId, account.agency_id, actor.user.id)
    if (!img) throw fieldError([{ field: 'imageId', errorType: 'INVALID' }])
  }
  const a = input.address ?? null
  await ctx.db
    .updateTable('account')
    .set({
      salutation: input.salutation,
      title: input.title,
      first_name: input.firstName,
      last_name: input.lastName,
      company: input.company,
      position: input.position,
      web: input.web,
      info: input.info,
      street: a?.street ?? null,
      street_number: a?.streetNumber ?? null,
      post_code: a?.postCode ?? null,
      city: a?.city ?? null,
      country: a?.country ?? null,
      birthday: input.birthday,
      gender: input.gender,
      phone_number: input.phoneNumber,
      mobile_phone_number: input.mobilePhoneNumber,
      ...(input.imageId !== undefined ? { image_asset_id: input.imageId ?? null } : {}),
      updated_at: isoNow(ctx.clock.now()),
    })
    .where('id', '=', id)
    .execute()
  const fresh = (await listAccountsOfUser(ctx.db, actor.user.id)).find((x) => x.id === id)!
  return accountDto(fresh, ctx.license.features, await imageDtoOf(ctx, fresh.image_asset_id))
}

/** Profile pictures are assets of the uploads module (type USER): the user's own, or of the account's agency. */
async function imageOf(ctx: AppContext, assetId: number, agencyId: number, userId: number) {
  const row = await ctx.db.selectFrom('asset').selectAll().where('id', '=', assetId).executeTakeFirst()
  if (!row || row.type !== 'USER' || !row.mime_type.startsWith('image/')) return null
  return row.owner_user_id === userId || row.agency_id === agencyId ? row : null
}

export async function imageDtoOf(ctx: AppContext, assetId: number | null) {
  if (assetId == null) return null
  const row = await ctx.db.selectFrom('asset').select(['id', 'original_file_name']).where('id', '=', assetId).executeTakeFirst()
  return row ? { id: row.id, defaultImagePath: `/proxy/api/asset/${row.id}?dimension=Regular_400`, originalFileName: row.original_file_name } : null
}

/** Uploads the profile picture of an own account (upload type USER, not encrypted, images only). */
export async function uploadAccountImage(ctx: AppContext, actor: SelfActor, id: number, file: File) {
  const account = (await listAccountsOfUser(ctx.db, actor.user.id)).find((a) => a.id === id)
  if (!account) throw notFound()
  if (!canEditAccount(account, ctx.license.features)) throw forbidden()
  if (account.status !== 'OK') throw new AppError(409, 'ACCOUNT_NOT_ACTIVATED')
  const asset = await storeUpload(ctx, { file, fileName: file.name || 'profil.jpg', type: 'USER', secure: false, storeOwnMedia: false, agencyId: account.agency_id, eventId: null, ownerUserId: actor.user.id, ownerIdentification: null })
  await ctx.db.updateTable('account').set({ image_asset_id: asset.id, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', id).execute()
  const fresh = (await listAccountsOfUser(ctx.db, actor.user.id)).find((x) => x.id === id)!
  return accountDto(fresh, ctx.license.features, await imageDtoOf(ctx, fresh.image_asset_id))
}

export async function accountsWithImages(ctx: AppContext, userId: number) {
  const accounts = await listAccountsOfUser(ctx.db, userId)
  return Promise.all(accounts.map(async (a) => accountDto(a, ctx.license.features, await imageDtoOf(ctx, a.image_asset_id))))
}

// The introduction boxes a user has hidden (spec: visible or hidden per key, persisted per user).
export async function hiddenIntroductions(ctx: AppContext, userId: number): Promise<string[]> {
  const rows = await ctx.db.selectFrom('user_introduction').select('key').where('user_id', '=', userId).orderBy('key').execute()
  return rows.map((r) => r.key)
}

export async function hideIntroductions(ctx: AppContext, userId: number, keys: string[]) {
  const unique = [...new Set(keys)]
  if (unique.length) {
    await ctx.db
      .insertInto('user_introduction')
      .values(unique.map((key) => ({ user_id: userId, key, created_at: isoNow(ctx.clock.now()) })))
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .execute()
  }
  return hiddenIntroductions(ctx, userId)
}

export async function showIntroductions(ctx: AppContext, userId: number, keys: string[] | null) {
  let q = ctx.db.deleteFrom('user_introduction').where('user_id', '=', userId)
  if (keys) {
    if (!keys.length) return hiddenIntroductions(ctx, userId)
    q = q.where('key', 'in', keys)
  }
  await q.execute()
  return hiddenIntroductions(ctx, userId)
}
