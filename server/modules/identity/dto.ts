// Wire shapes of the spec (camelCase field names exactly as listed there).
import { bool } from '../../db/types'
import type { AccountRow, AppUserRow } from './identity.table'
import type { AccountWithAgency } from './repository'
import { isGuestRole } from './roles'

export const DUMMY_MAIL_SUFFIX = '@dummy.einlass.invalid'

export function accountSwitcherEntry(a: AccountWithAgency) {
  return {
    id: a.id,
    agency: { id: a.agency_id, displayName: a.agency_display_name, internalName: a.agency_internal_name },
    userRole: a.user_role,
    status: a.status,
    newLogin: false,
    requireLogout: false,
    requireSsoLogin: false,
    guest: isGuestRole(a.user_role),
  }
}

export function userDto(user: AppUserRow, currentAccount: (AccountRow & { agency_display_name?: string; agency_internal_name?: string | null }) | null, accounts: AccountWithAgency[], tfaEnabled = false) {
  return {
    id: user.id,
    email: user.email,
    userStatus: user.status,
    deletionInProgress: bool(user.deletion_in_progress),
    isAccount: accounts.some((a) => !isGuestRole(a.user_role)),
    $isDummyMail: user.email.endsWith(DUMMY_MAIL_SUFFIX),
    language: { id: user.language, code: user.language },
    design: user.design,
    tfaEnabled,
    hasPassword: user.password_hash != null,
    currentAccount: currentAccount
      ? {
          id: currentAccount.id,
          agency: {
            id: currentAccount.agency_id,
            displayName: currentAccount.agency_display_name ?? accounts.find((a) => a.id === currentAccount.id)?.agency_display_name ?? null,
            internalName: currentAccount.agency_internal_name ?? accounts.find((a) => a.id === currentAccount.id)?.agency_internal_name ?? null,
          },
          userRole: currentAccount.user_role,
          firstName: currentAccount.first_name,
          lastName: currentAccount.last_name,
          calucatedLanguage: { code: user.language },
        }
      : null,
  }
}
