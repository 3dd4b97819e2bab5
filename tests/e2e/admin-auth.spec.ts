import { expect, test } from '@playwright/test'
import { ADMIN, nodeClient, signInThroughUi, adminClient } from './helpers/admin'
import { E2E_SETUP_CODE } from './helpers/setup-code'

// Runs first among the admin journeys (files run in name order): the shop starts with no admin.
test.describe.configure({ mode: 'serial' })

test('on a fresh shop, a stranger who reaches it first cannot claim it without the setup code', async ({
  page,
  baseURL,
}) => {
  const stranger = await nodeClient(baseURL!)
  const account = { email: 'stranger@humo.test', password: 'stranger-pass-42' }
  expect((await stranger.auth.signUp(account)).error).toBeNull()
  expect((await stranger.auth.signInWithPassword(account)).error).toBeNull()
  // The shop says it is unclaimed, but that no longer makes it anyone's.
  expect((await stranger.rpc('admin_exists')).data).toBe(false)
  const bare = await stranger.rpc('claim_first_admin')
  expect(bare.error).not.toBeNull()
  const guess = await stranger.rpc('claim_first_admin', { p_setup_code: 'AAAA-BBBB-CCCC-DDDD' })
  expect(guess.error).toBeNull()
  expect(guess.data).toMatchObject({ claimed: false, reason: 'wrong_code' })
  expect((await stranger.rpc('admin_exists')).data).toBe(false)

  // Nor through the login page: the sign-up needs the code.
  await page.goto('/admin')
  await page
    .getByRole('button', { name: 'Need to create the first admin account? Sign up' })
    .click()
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'CREATE ADMIN ACCOUNT' }).click()
  await expect(page.getByRole('alert')).toHaveText('Enter the setup code that npm start printed')
  await expect(page.getByText('Total Products')).toHaveCount(0)
})

test('the first admin signs up with the setup code, signs out, and signs in again', async ({
  page,
}) => {
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
  const setupCode = page.getByLabel('Setup code')
  await expect(setupCode).toHaveAccessibleDescription(
    /npm start printed it.*\.humo-data\/setup-code/,
  )
  await page.getByLabel('Email').fill(ADMIN.email)
  await password.fill(ADMIN.password)
  // A wrong code is refused, and everything typed stays for the next try.
  await setupCode.fill('WRNG-C0DE-0000-0000')
  await page.getByRole('button', { name: 'CREATE ADMIN ACCOUNT' }).click()
  await expect(page.getByRole('alert')).toContainText('That setup code is not right.')
  await expect(page.getByText('Total Products')).toHaveCount(0)
  await expect(page.getByLabel('Email')).toHaveValue(ADMIN.email)
  await expect(password).toHaveValue(ADMIN.password)
  await expect(setupCode).toHaveValue('WRNG-C0DE-0000-0000')

  await setupCode.fill(E2E_SETUP_CODE.toLowerCase())
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

  // Someone who calls the API directly gets an account, but not the admin role, even with the
  // setup code (it was spent).
  const other = await nodeClient(baseURL!)
  const account = { email: 'second@humo.test', password: 'another-pass-42' }
  expect((await other.auth.signUp(account)).error).toBeNull()
  expect((await other.auth.signInWithPassword(account)).error).toBeNull()
  const claim = await other.rpc('claim_first_admin', { p_setup_code: E2E_SETUP_CODE })
  expect(claim.error).toBeNull()
  expect(claim.data).toMatchObject({ claimed: false, reason: 'admin_exists' })
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
