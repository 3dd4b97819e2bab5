/**
 * The admin gate's rules (SPEC.md §2 "Admin login gate", §4, §5; DESIGN.md §8): sign-in checks
 * the profile's role and signs anyone else out at once; sign-up works only while the shop has no
 * admin (`claim_first_admin`). The admin role is remembered on the device per user id, so an
 * admin with an earlier session still gets the dashboard offline.
 */
import type { Session, SupabaseClient } from '@supabase/supabase-js'

const ROLE_KEY = 'humo.admin-role'
const ADMIN_EXISTS_KEY = 'humo.admin-exists'
const PENDING_CLAIM_KEY = 'humo.admin-pending-claim'
const AUTH_STORAGE_KEY = 'humo.auth'

export const PROFILE_MISSING = 'User profile not found'
export const ACCESS_DENIED = 'Access denied: Admin privileges required'
export const SIGNUP_TOAST = 'Admin account created! Please check your email to verify your account.'

export type AdminUser = { id: string; email: string }

export function rememberedAdmin(userId: string): boolean {
  return localStorage.getItem(ROLE_KEY) === userId
}
function rememberAdmin(userId: string) {
  localStorage.setItem(ROLE_KEY, userId)
  localStorage.setItem(ADMIN_EXISTS_KEY, '1')
}
export function forgetAdmin() {
  localStorage.removeItem(ROLE_KEY)
}

/** The session supabase-js keeps on the device, read directly when it cannot refresh (offline). */
export function storedSessionUser(): AdminUser | null {
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

type RoleAnswer = 'admin' | 'other' | 'missing' | 'unreachable'

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
  return data.role === 'admin' ? 'admin' : 'other'
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
  if (!navigator.onLine) return rememberedAdmin(user.id) ? user : null
  const role = await lookupRole(supabase, user.id)
  if (role === 'admin') {
    rememberAdmin(user.id)
    return user
  }
  if (role === 'unreachable') return rememberedAdmin(user.id) ? user : null
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
  if (role === 'missing' && localStorage.getItem(PENDING_CLAIM_KEY) === email.toLowerCase()) {
    const claimed = await supabase.rpc('claim_first_admin')
    localStorage.removeItem(PENDING_CLAIM_KEY)
    if (claimed.data === true) role = 'admin'
  }
  if (role === 'admin') {
    rememberAdmin(user.id)
    return { ok: true, user }
  }
  await supabase.auth.signOut({ scope: 'local' })
  forgetAdmin()
  if (role === 'missing') return { ok: false, error: PROFILE_MISSING }
  if (role === 'unreachable') return { ok: false, error: 'Authentication failed' }
  return { ok: false, error: ACCESS_DENIED }
}

export const ADMIN_EXISTS_MESSAGE =
  'This shop already has an admin. Ask an admin to add your account in Admin Settings'

export type SignUpResult =
  { ok: true; user: AdminUser; verified: boolean } | { ok: false; error: string }

export async function signUpFirstAdmin(
  supabase: SupabaseClient,
  email: string,
  password: string,
): Promise<SignUpResult> {
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${window.location.origin}/admin` },
  })
  if (error || !data.user) return { ok: false, error: error?.message || 'Authentication failed' }
  const user = { id: data.user.id, email: data.user.email ?? email }
  if (!data.session) {
    // Email verification first: the role is claimed on the first sign-in.
    localStorage.setItem(PENDING_CLAIM_KEY, email.toLowerCase())
    return { ok: true, user, verified: false }
  }
  const claimed = await supabase.rpc('claim_first_admin')
  if (claimed.error || claimed.data !== true) {
    await supabase.auth.signOut({ scope: 'local' })
    if (claimed.data === false) localStorage.setItem(ADMIN_EXISTS_KEY, '1')
    return {
      ok: false,
      error: claimed.error?.message ?? `${ADMIN_EXISTS_MESSAGE} (account id ${user.id}).`,
    }
  }
  rememberAdmin(user.id)
  return { ok: true, user, verified: true }
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
