/**
 * Staff roles (issue 32, docs/decisions/053-staff-roles-and-audit-trail.md) as the back office shows them: which parts of Admin
 * a role gets. The server is the guard (row level security and the RPCs refuse the rest); these
 * only keep a screen from offering what would be refused.
 */
export const STAFF_ROLES = ['owner', 'manager', 'budtender', 'driver'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

export const ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  budtender: 'Budtender',
  driver: 'Driver',
}

/** What a new invitation offers first: the role with the least reach that still serves a shift. */
export const DEFAULT_INVITE_ROLE: StaffRole = 'budtender'

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value)
}

export type Permissions = {
  /** The order board: every order, or for a driver their own deliveries. */
  board: boolean
  /** Products, brands, categories, featured: reading them in Admin. */
  readProducts: boolean
  /** Changing prices, stock and products (and importing them). */
  editProducts: boolean
  /** Shop settings (fees, facts, hours). */
  settings: boolean
  /** Tax rates and daily limits (compliance rules). */
  taxSettings: boolean
  /** Invitations, the staff list and roles. */
  staff: boolean
  /** Exports and reports with customers' personal data, analytics, contact messages. */
  exports: boolean
  /** The audit trail (Admin > Activity). */
  activity: boolean
  /** Shoppers' reviews: reading them, hiding one and showing it again (Admin > Reviews). */
  reviews: boolean
}

export function permissionsOf(role: StaffRole): Permissions {
  const owner = role === 'owner'
  const office = owner || role === 'manager'
  return {
    board: true,
    readProducts: office || role === 'budtender',
    editProducts: office,
    settings: office,
    taxSettings: owner,
    staff: owner,
    exports: office,
    activity: owner,
    reviews: office,
  }
}

/** What a refused part of Admin says to whoever opened it anyway. */
export function notAvailableMessage(role: StaffRole, what: string): string {
  return `${what} ${what.endsWith('s') ? 'are' : 'is'} not available to a ${ROLE_LABELS[role].toLowerCase()}. Ask an owner or a manager.`
}

/** The server's refusal of any other move by a driver (set_order_status, 20261129110100). */
export const DRIVER_MOVE_MESSAGE = 'Drivers can only hand off the deliveries assigned to them'
