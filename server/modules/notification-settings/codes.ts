// The notifications a person can switch on or off, on three levels: personal (USER), per agency
// account (ACCOUNT, null = inherit the personal value) and per event (EVENT, null = inherit the
// account's). Each code is sent by real code (see `sentBy`); nothing here is decoration.
import type { Permission } from '../identity/roles'

export type NotificationLevel = 'USER' | 'ACCOUNT' | 'EVENT'

export interface NotificationCode {
  code: string
  levels: readonly NotificationLevel[]
  /** value when nothing is stored on any level */
  default: boolean
  /** who gets it: users with a password, or organiser accounts holding the permission */
  audience: { kind: 'password' } | { kind: 'organiser'; permission?: Permission }
  sentBy: string
}

export const NOTIFICATION_CODES: readonly NotificationCode[] = [
  { code: 'LOGIN_NEW_DEVICE', levels: ['USER'], default: true, audience: { kind: 'password' }, sentBy: 'identity/service.ts rememberDevice' },
  { code: 'ACCOUNT_CHANGES', levels: ['USER', 'ACCOUNT'], default: true, audience: { kind: 'organiser' }, sentBy: 'agency-users/service.ts changeRole, removeUser' },
  { code: 'COLLEAGUE_JOINED', levels: ['USER', 'ACCOUNT'], default: true, audience: { kind: 'organiser', permission: 'AGENCY.USERS' }, sentBy: 'agency-users/service.ts acceptInvitation' },
  { code: 'NEW_REGISTRATION', levels: ['USER', 'ACCOUNT', 'EVENT'], default: false, audience: { kind: 'organiser', permission: 'EVENT.GUEST.VIEW' }, sentBy: 'notification-settings/service.ts notifyNewRegistration' },
]

export const codeOf = (code: string) => NOTIFICATION_CODES.find((c) => c.code === code)
