// Wire shapes of the spec (camelCase field names exactly as listed there).
import { bool } from '../../db/types'
import type { AccountRow, AppUserRow } from './identity.table'
import type { AccountWithAgency } from './repository'
import { isGuestRole, permissionsOf } from './roles'

export const DUMMY_MAIL_SUFFIX = '@dummy.einlass.invalid'
/** The entry-pass variant of the product hides profile editing. */
export const ENTRY_PASS_FEATURE = 'SYSTEM_COVIDOO'

/** An account switcher entry (spec 2.5); `sso`: its company-login requirement in this session (identity/sso/policy.ts). */
export function accountSwitcherEntry(a: AccountWithAgency, sso: { requireSsoLogin: boolean; requireLogout: boolean } = { requireSsoLogin: false, requireLogout: false }) {
  return {
    id: a.id,
    agency: { id: a.agency_id, displayName: a.agency_display_name, internalName: a.agency_internal_name },
    userRole: a.user_role,
    status: a.status,
    // choosing such an account goes through /proxy/auth/select, which starts the company login
    newLogin: sso.requireSsoLogin,
    requireLogout: sso.requireLogout,
    requireSsoLogin: sso.requireSsoLogin,
    guest: isGuestRole(a.user_role),
  }
}

/**
 * Where an account is in its life: OK, PENDING_ACTIVATION (invited, not yet accepted),
 * DELETION_REQUESTED (marked, waiting for the mailed confirmation), DELETION_SCHEDULED (confirmed,
 * erased at finalDeletionDate unless revoked).
 */
export function accountStatusOf(a: Pick<AccountRow, 'status' | 'deletion_in_progress' | 'require_deletion'>) {
  if (bool(a.require_deletion)) return 'DELETION_SCHEDULED'
  if (bool(a.deletion_in_progress)) return 'DELETION_REQUESTED'
  return a.status
}

/** Whether the profile form may be edited (spec 2.2): entry-pass variant off; guest roles only with canEditAccount. */
export function canEditAccount(a: Pick<AccountRow, 'user_role' | 'can_edit_account'>, features: readonly string[]) {
  if (features.includes(ENTRY_PASS_FEATURE)) return false
  return isGuestRole(a.user_role) ? bool(a.can_edit_account) : true
}

export function accountDto(a: AccountWithAgency, features: readonly string[], image: { id: number; defaultImagePath: string; originalFileName: string } | null = null) {
  const guest = isGuestRole(a.user_role)
  return {
    id: a.id,
    agency: {
      id: a.agency_id,
      displayName: a.agency_display_name,
      internalName: a.agency_internal_name,
      agencyType: a.agency_type,
      contactGuest: a.agency_contact_guest,
      contactGuestPhone: a.agency_contact_guest_phone,
      contactGuestMail: a.agency_contact_guest_mail,
    },
    userRole: a.user_role,
    status: a.status,
    accountStatus: accountStatusOf(a),
    isAdmin: a.user_role === 'AGENCY_ADMIN',
    permissions: permissionsOf(a.user_role),
    image,
    salutation: a.salutation,
    title: a.title,
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    position: a.position,
    web: a.web,
    info: a.info,
    address: { street: a.street, streetNumber: a.street_number, postCode: a.post_code, city: a.city, country: a.country },
    companyAddress: a.company_address ? JSON.parse(a.company_address) : null,
    birthday: a.birthday,
    gender: a.gender,
    phoneNumber: a.phone_number,
    mobilePhoneNumber: a.mobile_phone_number,
    covidState: a.covid_state,
    escortName: null,
    deletionInProgress: bool(a.deletion_in_progress),
    // guests ask the agency that holds their data; organiser accounts use the deletion dialog
    deleteLink: guest && a.agency_contact_guest_mail ? `mailto:${a.agency_contact_guest_mail}` : null,
    requireDeletion: bool(a.require_deletion),
    finalDeletionDate: a.final_deletion_date,
    canEditAccount: canEditAccount(a, features),
    delegateEmail: null,
  }
}

type CurrentAccount = AccountRow & { agency_display_name?: string; agency_internal_name?: string | null }

export function userDto(user: AppUserRow, currentAccount: CurrentAccount | null, accounts: AccountWithAgency[], tfaEnabled = false) {
  const withAgency = currentAccount ? accounts.find((a) => a.id === currentAccount.id) : undefined
  return {
    id: user.id,
    email: user.email,
    userStatus: user.status,
    deletionInProgress: bool(user.deletion_in_progress) || accounts.some((a) => bool(a.deletion_in_progress)),
    requireDeletion: bool(user.require_deletion),
    finalDeletionDate: user.final_deletion_date,
    isAccount: accounts.some((a) => !isGuestRole(a.user_role)),
    $isDummyMail: user.email.endsWith(DUMMY_MAIL_SUFFIX),
    $delegateEmail: null,
    language: { id: user.language, code: user.language },
    design: user.design,
    tfaEnabled,
    hasPassword: user.password_hash != null,
    /** accounts that can be chosen (status OK) */
    validAccounts: accounts.filter((a) => a.status === 'OK').length,
    currentAccount: currentAccount
      ? {
          id: currentAccount.id,
          agency: {
            id: currentAccount.agency_id,
            displayName: currentAccount.agency_display_name ?? withAgency?.agency_display_name ?? null,
            internalName: currentAccount.agency_internal_name ?? withAgency?.agency_internal_name ?? null,
          },
          userRole: currentAccount.user_role,
          status: currentAccount.status,
          permissions: permissionsOf(currentAccount.user_role),
          firstName: currentAccount.first_name,
          lastName: currentAccount.last_name,
          calucatedLanguage: { code: user.language },
        }
      : null,
  }
}
