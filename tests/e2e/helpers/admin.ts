import { expect, type Page } from '@playwright/test'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { E2E_SETUP_CODE } from './setup-code'

/** The first admin of the e2e shop (admin-auth.spec.ts creates it through the UI). */
export const ADMIN = { email: 'owner@humo.test', password: 'correct-horse-42' }

export function nodeClient(baseURL: string): Promise<SupabaseClient> {
  return fetch(`${baseURL}/humo-config.json`)
    .then((r) => r.json() as Promise<{ supabaseUrl: string; supabaseAnonKey: string }>)
    .then((config) =>
      createClient(config.supabaseUrl, config.supabaseAnonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      }),
    )
}

/**
 * A supabase-js client signed in as the admin, creating the first admin when the shop has none
 * (with the setup code the e2e server was given, playwright.config.ts).
 */
export async function adminClient(baseURL: string): Promise<SupabaseClient> {
  const supabase = await nodeClient(baseURL)
  const signIn = await supabase.auth.signInWithPassword(ADMIN)
  if (signIn.error) {
    const signUp = await supabase.auth.signUp(ADMIN)
    if (signUp.error) throw signUp.error
    // Sign-up answers no session (docs/decisions/024-proven-addresses.md): sign in next.
    const signedIn = await supabase.auth.signInWithPassword(ADMIN)
    if (signedIn.error) throw signedIn.error
    const claimed = await supabase.rpc('claim_first_admin', { p_setup_code: E2E_SETUP_CODE })
    if (claimed.error) throw claimed.error
    if ((claimed.data as { claimed: boolean }).claimed !== true)
      throw new Error('the e2e shop already has another admin')
  }
  return supabase
}

export async function signInThroughUi(page: Page, email = ADMIN.email, password = ADMIN.password) {
  await page.goto('/admin')
  await expect(page.getByText('Secure Authentication Portal')).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'ACCESS DASHBOARD' }).click()
}

/** Opens the dashboard signed in as the admin. */
export async function openDashboard(page: Page, baseURL: string) {
  await adminClient(baseURL)
  await signInThroughUi(page)
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  await expect(page.getByText('Total Products')).toBeVisible()
}

/** Admin Settings: the Settings entry of the admin's navigation (issue 33). */
export async function openSettingsTab(page: Page) {
  await page.getByRole('tab', { name: 'Settings' }).click()
  const panel = settingsPanel(page)
  await expect(panel.getByRole('heading', { name: 'Admin Settings' })).toBeVisible()
  return panel
}

/** The Settings tab's panel, however it was opened (the tab, the palette). */
export const settingsPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Settings' })

/** Back to the Orders tab: Settings is left, and reloads its staff lists when opened again. */
export async function leaveSettings(page: Page) {
  await page.getByRole('tab', { name: 'Orders' }).click()
  await expect(settingsPanel(page)).toBeHidden()
}
