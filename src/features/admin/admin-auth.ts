/**
 * The admin gate's rules (SPEC.md §2 "Admin login gate", §4, §5; DESIGN.md §8): sign-in checks
 * the profile's role and signs anyone else out at once; sign-up works only while the shop has no
 * admin, and only with the setup code the server printed (`claim_first_admin`); later staff join
 * with an invitation code (docs/decisions/025-setup-code-and-invitations.md). Any staff role opens Admin, and the role travels
 * with the user to the screens (issue 32, docs/decisions/053-staff-roles-and-audit-trail.md). The role is remembered on the
 * device per user id, so staff with an earlier session still get the dashboard offline.
 */
import type { Session, SupabaseClient } from '@supabase/supabase-js'
import { acceptInvitation } from './staff/staff-api'
import { isStaffRole, type StaffRole } from './staff/staff-roles'

const ROLE_KEY = 'humo.admin-role'
/** The remembered user's staff role (ROLE_KEY holds their id, as before roles). */
const STAFF_ROLE_KEY = 'humo.admin-staff-role'
const ADMIN_EXISTS_KEY = 'humo.admin-exists'
const PENDING_CLAIM_KEY = 'humo.admin-pending-claim'
const AUTH_STORAGE_KEY = 'humo.auth'

export const PROFILE_MISSING = 'User profile not found'
export const ACCESS_DENIED = 'Access denied: Admin privileges required'
export const SIGNUP_TOAST = 'Admin account created! Please check your email to verify your account.'

export type AdminUser = { id: string; email: string; role: StaffRole }
type SessionUser = { id: string; email: string }

/** The staff role this device last saw for the user, or null. */
export function rememberedAdmin(userId: string): StaffRole | null {
  if (localStorage.getItem(ROLE_KEY) !== userId) return null
  const role = localStorage.getItem(STAFF_ROLE_KEY)
  // A device remembered before roles: every admin became an owner on upgrade.
  return isStaffRole(role) ? role : 'owner'
}
function rememberAdmin(user: SessionUser, role: StaffRole): AdminUser {
  localStorage.setItem(ROLE_KEY, user.id)
  localStorage.setItem(STAFF_ROLE_KEY, role)
  localStorage.setItem(ADMIN_EXISTS_KEY, '1')
  return { ...user, role }
}
export function forgetAdmin() {
  localStorage.removeItem(ROLE_KEY)
  localStorage.removeItem(STAFF_ROLE_KEY)
}

/** The session supabase-js keeps on the device, read directly when it cannot refresh (offline). */
export function storedSessionUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY)
    if (!raw) return null
    const parsed = JSON.parse(raw) as { user?: { id?: string; email?: string } }
    return parsed.user?.id ? { id: parsed.user.id, email: parsed.user.email ?? '' } : null
  } catch {
    return null
  }
}

const isNetworkError = (error: { message?: string } | null) =>
  !navigator.onLine || /fetch|network|load failed/i.test(error?.message ?? '')

type RoleAnswer = StaffRole | 'other' | 'missing' | 'unreachable'

export async function lookupRole(supabase: SupabaseClient, userId: string): Promise<RoleAnswer> {
  const { data, error } = await supabase
    .from('user_profiles')
    .select('role')
    .eq('user_id', userId)
    .single<{ role: string }>()
  if (error) {
    if (error.code === 'PGRST116') return 'missing'
    return isNetworkError(error) ? 'unreachable' : 'other'
  }
  return isStaffRole(data.role) ? data.role : 'other'
}

/**
 * Decides what a session on this device gets: the dashboard (online check, or the remembered
 * role when the server cannot be reached) or nothing.
 */
export async function adminForSession(
  supabase: SupabaseClient,
  session: Session | null,
): Promise<AdminUser | null> {
  const user = session?.user
    ? { id: session.user.id, email: session.user.email ?? '' }
    : storedSessionUser()
  if (!user) return null
  const remembered = () => {
    const role = rememberedAdmin(user.id)
    return role ? { ...user, role } : null
  }
  if (!navigator.onLine) return remembered()
  const role = await lookupRole(supabase, user.id)
  if (isStaffRole(role)) return rememberAdmin(user, role)
  if (role === 'unreachable') return remembered()
  return null
}

export type AuthResult = { ok: true; user: AdminUser } | { ok: false; error: string }

export async function signInAdmin(
  supabase: SupabaseClient,
  email: string,
  password: string,
): Promise<AuthResult> {
  const { data, error } = await supabase.auth.signInWithPassword({ email, password })
  if (error || !data.user) return { ok: false, error: error?.message || 'Authentication failed' }
  const user = { id: data.user.id, email: data.user.email ?? email }
  let role = await lookupRole(supabase, user.id)
  // A first admin whose sign-up needed email verification claims the role on first sign-in.
  const pending = pendingClaim()
  if (role === 'missing' && pending?.email === email.toLowerCase()) {
    const claimed = await claimFirstAdmin(supabase, pending.code)
    localStorage.removeItem(PENDING_CLAIM_KEY)
    if (claimed.ok) role = 'owner'
  }
  if (isStaffRole(role)) return { ok: true, user: rememberAdmin(user, role) }
  await supabase.auth.signOut({ scope: 'local' })
  forgetAdmin()
  if (role === 'missing') return { ok: false, error: PROFILE_MISSING }
  if (role === 'unreachable') return { ok: false, error: 'Authentication failed' }
  return { ok: false, error: ACCESS_DENIED }
}

export const ADMIN_EXISTS_MESSAGE =
  'This shop already has an admin. Ask an admin for a staff invitation (Admin Settings, Staff)'

export const SETUP_CODE_MISSING = 'Enter the setup code that npm start printed'
export const INVITATION_CODE_MISSING = 'Enter the invitation code you were given'

export type SignUpResult =
  { ok: true; user: AdminUser; verified: boolean } | { ok: false; error: string }

/** A sign-up waiting for its email link: who, and the setup code to claim the shop with. */
function pendingClaim(): { email: string; code: string } | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(PENDING_CLAIM_KEY) ?? 'null') as {
      email?: unknown
      code?: unknown
    } | null
    if (typeof parsed?.email === 'string' && typeof parsed.code === 'string')
      return { email: parsed.email, code: parsed.code }
  } catch {
    // an older device's plain email: nothing to claim with
  }
  return null
}

type Claim = { ok: true } | { ok: false; error: string; adminExists: boolean }

async function claimFirstAdmin(supabase: SupabaseClient, setupCode: string): Promise<Claim> {
  const response = await supabase.rpc('claim_first_admin', { p_setup_code: setupCode.trim() })
  if (response.error) return { ok: false, error: response.error.message, adminExists: false }
  const answer = response.data as { claimed: boolean; reason?: string; message?: string }
  if (answer.claimed) return { ok: true }
  return {
    ok: false,
    error: answer.message ?? ADMIN_EXISTS_MESSAGE,
    adminExists: answer.reason === 'admin_exists',
  }
}

type Opened =
  | { ok: true; user: SessionUser; session: true }
  /** Signed up, but the address must be confirmed (the emailed link) before signing in. */
  | { ok: true; user: SessionUser; session: false }
  | { ok: false; error: string }

/**
 * A session for a new or an existing account. Sign-up answers an address that already has an
 * account like a new one that must be confirmed (it does not say which), so when it gives no
 * session this signs in with the same password: the owner of an existing account gets in, a new
 * account that needs its email link is told so.
 */
async function openAccount(
  supabase: SupabaseClient,
  email: string,
  password: string,
): Promise<Opened> {
  const up = await supabase.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${window.location.origin}/admin` },
  })
  if (!up.error && up.data.session && up.data.user)
    return {
      ok: true,
      user: { id: up.data.user.id, email: up.data.user.email ?? email },
      session: true,
    }
  if (up.error?.status === 429) return { ok: false, error: up.error.message }
  const signIn = await supabase.auth.signInWithPassword({ email, password })
  if (!signIn.error && signIn.data.user)
    return {
      ok: true,
      user: { id: signIn.data.user.id, email: signIn.data.user.email ?? email },
      session: true,
    }
  if (!up.error && up.data.user && /not confirmed/i.test(signIn.error?.message ?? ''))
    return { ok: true, user: { id: up.data.user.id, email }, session: false }
  if (up.error) return { ok: false, error: up.error.message || 'Authentication failed' }
  if (/invalid login credentials/i.test(signIn.error?.message ?? ''))
    return {
      ok: false,
      error:
        'Could not sign in with this email and password. If this email already has an account, enter its password.',
    }
  return { ok: false, error: signIn.error?.message || 'Authentication failed' }
}

/**
 * The first admin: an account (new, or an existing one with its password) that claims the shop
 * with the setup code the server printed. A wrong code signs the account out again; the form
 * keeps what was typed.
 */
export async function signUpFirstAdmin(
  supabase: SupabaseClient,
  email: string,
  password: string,
  setupCode: string,
): Promise<SignUpResult> {
  if (!setupCode.trim()) return { ok: false, error: SETUP_CODE_MISSING }
  const opened = await openAccount(supabase, email, password)
  if (!opened.ok) return opened
  const { user } = opened
  if (!opened.session) {
    // Email verification first: the role is claimed on the first sign-in, on this device.
    localStorage.setItem(
      PENDING_CLAIM_KEY,
      JSON.stringify({ email: email.toLowerCase(), code: setupCode.trim() }),
    )
    // The shop's first admin is its owner once the claim goes through.
    return { ok: true, user: { ...user, role: 'owner' }, verified: false }
  }
  const claimed = await claimFirstAdmin(supabase, setupCode)
  if (!claimed.ok) {
    await supabase.auth.signOut({ scope: 'local' })
    if (claimed.adminExists) localStorage.setItem(ADMIN_EXISTS_KEY, '1')
    return { ok: false, error: claimed.error }
  }
  return { ok: true, user: rememberAdmin(user, 'owner'), verified: true }
}

/**
 * Joining the staff with an invitation: an account (new, or an existing one with its password)
 * that accepts the code. A refused code signs the account out again.
 */
export async function joinStaff(
  supabase: SupabaseClient,
  email: string,
  password: string,
  code: string,
): Promise<AuthResult> {
  if (!code.trim()) return { ok: false, error: INVITATION_CODE_MISSING }
  const opened = await openAccount(supabase, email, password)
  if (!opened.ok) return opened
  if (!opened.session)
    return {
      ok: false,
      error:
        'Confirm your email address first: follow the link we just sent you, then open the invitation again and join with the same email and password.',
    }
  const accepted = await acceptInvitation(supabase, code)
  if (!accepted.ok) {
    await supabase.auth.signOut({ scope: 'local' })
    return accepted
  }
  return { ok: true, user: rememberAdmin(opened.user, accepted.role) }
}

/**
 * Whether the sign-up link should show. Asks `admin_exists()` when the backend has it; otherwise
 * only what this device has seen (the server refuses a second admin sign-up anyway).
 */
export async function adminExists(supabase: SupabaseClient | null): Promise<boolean> {
  if (localStorage.getItem(ADMIN_EXISTS_KEY) === '1') return true
  if (!supabase || !navigator.onLine) return false
  const response = await supabase.rpc('admin_exists')
  if (response.error) return false
  const exists = response.data === true
  if (exists) localStorage.setItem(ADMIN_EXISTS_KEY, '1')
  return exists
}
