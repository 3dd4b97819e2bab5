import { expect, test } from '@playwright/test'
import { ADMIN, nodeClient, signInThroughUi, adminClient } from './helpers/admin'

// Runs first among the admin journeys (files run in name order): the shop starts with no admin.
test.describe.configure({ mode: 'serial' })

test('the first admin signs up, signs out, and signs in again', async ({ page }) => {
  await page.goto('/admin')
  await expect(page.getByText('Secure Authentication Portal')).toBeVisible()
  await expect(page.getByLabel('Email')).toBeFocused()
  const password = page.getByLabel('Password', { exact: true })
  await expect(password).toHaveAttribute('type', 'password')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(password).toHaveAttribute('type', 'text')

  await page
    .getByRole('button', { name: 'Need to create the first admin account? Sign up' })
    .click()
  await expect(page.getByRole('button', { name: 'CREATE ADMIN ACCOUNT' })).toBeVisible()
  await page.getByLabel('Email').fill(ADMIN.email)
  await password.fill(ADMIN.password)
  await page.getByRole('button', { name: 'CREATE ADMIN ACCOUNT' }).click()
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  await expect(page.getByText('Dashboard', { exact: true })).toBeVisible()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await expect(page.getByRole('tab', { name: 'Orders' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('order-card').first()).toBeVisible()

  await page.getByRole('button', { name: 'Sign Out' }).click()
  await expect(page.getByText('Secure Authentication Portal')).toBeVisible()
  await signInThroughUi(page)
  await expect(page.getByText('Total Orders')).toBeVisible()
  await expect(page.getByTestId('order-card').first()).toBeVisible()
})

test('a second admin sign-up is refused: no link on the login page, and the server says no', async ({
  page,
  baseURL,
}) => {
  await adminClient(baseURL!)
  await page.goto('/admin')
  await expect(page.getByText('Secure Authentication Portal')).toBeVisible()
  await expect(page.getByRole('button', { name: 'CREATE ADMIN ACCOUNT' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Sign up/ })).toHaveCount(0)

  // Someone who calls the API directly gets an account, but not the admin role.
  const other = await nodeClient(baseURL!)
  const created = await other.auth.signUp({
    email: 'second@humo.test',
    password: 'another-pass-42',
  })
  expect(created.error).toBeNull()
  const claim = await other.rpc('claim_first_admin')
  expect(claim.error).toBeNull()
  expect(claim.data).toBe(false)
})

test('a non-admin is signed out with "Access denied", an account without profile too', async ({
  page,
  baseURL,
}) => {
  const admin = await adminClient(baseURL!)
  const customer = await nodeClient(baseURL!)
  const created = await customer.auth.signUp({
    email: 'shopper@humo.test',
    password: 'shopper-pass-42',
  })
  expect(created.error).toBeNull()
  const insert = await admin
    .from('user_profiles')
    .insert({ user_id: created.data.user!.id, role: 'customer' })
  expect(insert.error).toBeNull()

  await signInThroughUi(page, 'shopper@humo.test', 'shopper-pass-42')
  await expect(page.getByRole('alert')).toHaveText('Access denied: Admin privileges required')
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  await expect(page.getByText('Total Products')).toHaveCount(0)
  const session = await page.evaluate(() => localStorage.getItem('humo.auth'))
  expect(session).toBeNull()

  await signInThroughUi(page, 'second@humo.test', 'another-pass-42')
  await expect(page.getByRole('alert')).toHaveText('User profile not found')

  await signInThroughUi(page, ADMIN.email, 'wrong-password')
  await expect(page.getByRole('alert')).toHaveText('Invalid login credentials')
})
