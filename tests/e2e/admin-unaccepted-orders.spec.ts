import { expect, test, type Page } from '@playwright/test'
import type { SupabaseClient } from '@supabase/supabase-js'
import { adminClient, leaveSettings, openDashboard, settingsPanel } from './helpers/admin'

// Issue 23, finding 4 (docs/decisions/026-rate-limits-and-unaccepted-orders.md): the time staff have to accept an order before it is
// cancelled and its stock returns is a shop setting, edited in Admin Settings.

async function openSettings(page: Page) {
  await page.keyboard.press('Control+k')
  const search = page.getByPlaceholder('Search commands...')
  await expect(search).toBeVisible()
  await search.fill('Admin Settings')
  await page.keyboard.press('Enter')
  // The palette's "Admin Settings" leads to the Settings tab.
  return settingsPanel(page)
}

let admin: SupabaseClient

test.beforeAll(async ({ baseURL }) => {
  admin = await adminClient(baseURL!)
})

test('an admin sets the time to accept an order in opening hours', async ({ page, baseURL }) => {
  await openDashboard(page, baseURL!)
  const dialog = await openSettings(page)
  const field = dialog.getByLabel('Time to accept an order (opening hours)')
  await expect(field).toHaveValue('12')
  await expect(dialog.getByText(/cancelled automatically and its\s+stock returns/)).toBeVisible()

  await field.fill('0')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(
    dialog.getByText('Time to accept an order must be between 1 and 168 opening hours'),
  ).toBeVisible()

  await field.fill('24')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  const { data } = await admin
    .from('shop_settings')
    .select('unaccepted_order_hours')
    .single<{ unaccepted_order_hours: number }>()
  expect(data?.unaccepted_order_hours).toBe(24)

  // Settings opens again with the saved value, once the device has pulled it.
  await leaveSettings(page)
  const again = await openSettings(page)
  await expect(again.getByLabel('Time to accept an order (opening hours)')).toHaveValue('24')

  await again.getByLabel('Time to accept an order (opening hours)').fill('12')
  await again.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').last()).toBeVisible()
  await expect
    .poll(async () => {
      const { data: row } = await admin
        .from('shop_settings')
        .select('unaccepted_order_hours')
        .single<{ unaccepted_order_hours: number }>()
      return row?.unaccepted_order_hours
    })
    .toBe(12)
})
