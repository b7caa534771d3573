import { sql } from 'kysely'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { AppError } from '../../shared/errors'
import type { AccountRow, AppUserRow } from './identity.table'
import type { LoginBody, SetupBody } from './model'
import { countUsers, findUserByEmail, insertUser, listAccountsOfUser } from './repository'
import { isGuestRole } from './roles'
import { createSession } from './session'

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

// A fixed hash to compare against when the e-mail is unknown, so both paths cost the same time.
let dummyHash: Promise<string> | null = null
const timingDummy = () => (dummyHash ??= hashPassword('timing-equaliser-Aa1!'))

export async function verifyPassword(user: AppUserRow | undefined, password: string): Promise<boolean> {
  if (!user?.password_hash) {
    await Bun.password.verify(password, await timingDummy())
    return false
  }
  return Bun.password.verify(password, user.password_hash)
}

/** Serialises first-start setup between concurrent requests and processes. */
async function lockSetup(ctx: AppContext, trx: Db) {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(4242001)`.execute(trx)
}

export async function createAgencyWithAdmin(
  ctx: AppContext,
  input: SetupBody,
  opts: { onlyIfNoUser: boolean },
): Promise<{ user: AppUserRow; account: AccountRow }> {
  const passwordHash = await hashPassword(input.password)
  return ctx.db.transaction().execute(async (trx) => {
    await lockSetup(ctx, trx)
    if (opts.onlyIfNoUser && (await countUsers(trx)) > 0) throw new AppError(409, 'SETUP_DONE')
    if (await findUserByEmail(trx, input.email)) throw new AppError(409, 'EMAIL_TAKEN', { fields: [{ field: 'email', errorType: 'EMAIL_TAKEN' }] })
    const agency = await trx.insertInto('agency').values({ display_name: input.agencyName }).returningAll().executeTakeFirstOrThrow()
    const user = await insertUser(trx, { email: input.email, password_hash: passwordHash, status: 'OK', language: ctx.config.i18n.language })
    const account = await trx
      .insertInto('account')
      .values({ user_id: user.id, agency_id: agency.id, user_role: 'AGENCY_ADMIN', first_name: input.firstName, last_name: input.lastName })
      .returningAll()
      .executeTakeFirstOrThrow()
    return { user, account }
  })
}

export async function setupRequired(ctx: AppContext) {
  return (await countUsers(ctx.db)) === 0
}

/** Checks the password and opens a session; picks the account when there is only one to pick. */
export async function login(ctx: AppContext, input: LoginBody, meta: { userAgent: string | null; ip: string | null }) {
  const user = await findUserByEmail(ctx.db, input.email)
  const ok = await verifyPassword(user, input.password)
  if (!ok || !user) throw new AppError(401, 'INVALID_CREDENTIALS')
  const accounts = await listAccountsOfUser(ctx.db, user.id)
  const usable = accounts.filter((a) => a.status === 'OK')
  const organiser = usable.filter((a) => !isGuestRole(a.user_role))
  const preselect = organiser.length === 1 ? organiser[0].id : organiser.length === 0 && usable.length === 1 ? usable[0].id : null
  const { token, session } = await createSession(ctx, user.id, { accountId: preselect, userAgent: meta.userAgent, ip: meta.ip })
  return { token, session, user, accounts }
}
