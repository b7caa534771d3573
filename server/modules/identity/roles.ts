// Roles and what each may do. The server checks these on every call; the UI only hides.
// The table is documented in docs/permissions.md (kept in step by a test).
export const ORGANISER_ROLES = ['AGENCY_ADMIN', 'AGENCY_MANAGER', 'AGENCY_EDITOR', 'AGENCY_CHECKIN'] as const
export const GUEST_ROLES = ['CP_PERSOO_VISITOR_GUEST', 'CP_PERSOO_VISITOR_GUEST_GHOST', 'CP_PERSOO_VISITOR_ADMIN'] as const
export type OrganiserRole = (typeof ORGANISER_ROLES)[number]
export type GuestRole = (typeof GUEST_ROLES)[number]
export type Role = OrganiserRole | GuestRole

export const PERMISSIONS = [
  'AGENCY.MANAGE',
  'AGENCY.USERS',
  'AGENCY.ABO',
  'EVENT.VIEW',
  'EVENT.CREATE',
  'EVENT.EDIT',
  'EVENT.DELETE',
  'EVENT.GUEST.VIEW',
  'EVENT.GUEST.MANAGE',
  'EVENT.GUEST.IMPORT',
  'EVENT.GUEST.EXPORT',
  'EVENT.INVITE',
  'EVENT.CHECKIN',
  'EVENT.STATISTICS',
  'AGREEMENT.MANAGE',
  'TAG.MANAGE',
  'ASSET.UPLOAD',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const ALL = [...PERMISSIONS]
const MANAGER: Permission[] = ALL.filter((p) => p !== 'AGENCY.MANAGE' && p !== 'AGENCY.USERS' && p !== 'AGENCY.ABO')
const EDITOR: Permission[] = MANAGER.filter((p) => p !== 'EVENT.DELETE' && p !== 'AGREEMENT.MANAGE')
const CHECKIN: Permission[] = ['EVENT.VIEW', 'EVENT.GUEST.VIEW', 'EVENT.CHECKIN']

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  AGENCY_ADMIN: ALL,
  AGENCY_MANAGER: MANAGER,
  AGENCY_EDITOR: EDITOR,
  AGENCY_CHECKIN: CHECKIN,
  // Guest roles hold no organiser permission: in the guest application every check answers no.
  CP_PERSOO_VISITOR_GUEST: [],
  CP_PERSOO_VISITOR_GUEST_GHOST: [],
  CP_PERSOO_VISITOR_ADMIN: [],
}

export const isGuestRole = (role: string): role is GuestRole => (GUEST_ROLES as readonly string[]).includes(role)
export const isOrganiserRole = (role: string): role is OrganiserRole => (ORGANISER_ROLES as readonly string[]).includes(role)
export const can = (role: string, p: Permission) => (ROLE_PERMISSIONS[role as Role] ?? []).includes(p)
export const permissionsOf = (role: string): readonly Permission[] => ROLE_PERMISSIONS[role as Role] ?? []
