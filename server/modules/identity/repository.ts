import type { Db } from '../../db/database'
import type { AccountRow, AppUserRow } from './identity.table'
import { ORGANISER_ROLES } from './roles'

export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('app_user').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst()

export const findUserById = (db: Db, id: number) => db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst()

export const countUsers = async (db: Db) => {
  const r = await db.selectFrom('app_user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(r.n)
}

export interface AccountWithAgency extends AccountRow {
  agency_display_name: string
  agency_internal_name: string | null
  agency_type: string
  agency_contact_guest: string | null
  agency_contact_guest_phone: string | null
  agency_contact_guest_mail: string | null
}

export const listAccountsOfUser = (db: Db, userId: number): Promise<AccountWithAgency[]> =>
  db
    .selectFrom('account')
    .innerJoin('agency', 'agency.id', 'account.agency_id')
    .selectAll('account')
    .select([
      'agency.display_name as agency_display_name',
      'agency.internal_name as agency_internal_name',
      'agency.agency_type as agency_type',
      'agency.contact_guest as agency_contact_guest',
      'agency.contact_guest_phone as agency_contact_guest_phone',
      'agency.contact_guest_mail as agency_contact_guest_mail',
    ])
    .where('account.user_id', '=', userId)
    .orderBy('agency.display_name')
    .orderBy('account.id')
    .execute()

export async function insertUser(db: Db, values: { email: string; password_hash: string | null; status: AppUserRow['status']; language?: string }) {
  return db
    .insertInto('app_user')
    .values({ ...values, email: values.email.toLowerCase() })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Whether an e-mail address belongs to staff: a user with an organiser account in any agency. Such a
 * user logs in with the password; a guest link (access link) or a registration passed on to the
 * address must not reach them (409 USER_HAS_ACCOUNT: guest/access-link.ts, guest/transfer.ts).
 */
export async function isStaffAddress(db: Db, email: string): Promise<boolean> {
  const r = await db
    .selectFrom('app_user as u')
    .innerJoin('account as a', 'a.user_id', 'u.id')
    .select('a.id')
    .where('u.email', '=', email.trim().toLowerCase())
    .where('a.user_role', 'in', [...ORGANISER_ROLES])
    .limit(1)
    .executeTakeFirst()
  return !!r
}
