import { expect, test, type Browser, type Page } from '@playwright/test'
import { leaveSettings, nodeClient, openDashboard, settingsPanel } from './helpers/admin'

// Staff join with an invitation (issue 23, docs/decisions/025-setup-code-and-invitations.md): an admin creates it in Admin
// Settings and hands over its link; the invited person creates an account from the link and is
// in. A used or revoked invitation is refused; an unconfirmed email cannot be made an admin.
test.describe.configure({ mode: 'serial' })

async function openStaff(page: Page) {
  await page.keyboard.press('Control+k')
  const search = page.getByPlaceholder('Search commands...')
  await search.fill('Admin Settings')
  await page.keyboard.press('Enter')
  // The palette's "Admin Settings" leads to the Settings tab.
  const dialog = settingsPanel(page)
  await expect(dialog).toBeVisible()
  return dialog
}

async function createInvitation(page: Page, note: string) {
  const dialog = await openStaff(page)
  await dialog.getByLabel('Who is it for? (a note for you, optional)').fill(note)
  await dialog.getByRole('button', { name: 'Create invitation' }).click()
  const created = dialog.getByRole('status').filter({ hasText: 'Invitation created' })
  await expect(created).toContainText(`Invitation created for ${note}. It is shown only now`)
  const code = (await created.getByLabel('Invitation code').textContent())!
  const link = (await created.getByLabel('Invitation link').textContent())!
  expect(link).toMatch(/\/admin\?invite=/)
  return { dialog, code, link }
}

/** Someone else's browser, opening the invitation link and joining with a new account. */
async function joinFromLink(browser: Browser, link: string, email: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(link)
  await expect(page.getByRole('button', { name: 'JOIN THE STAFF' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('staff-pass-4242')
  await page.getByRole('button', { name: 'JOIN THE STAFF' }).click()
  return { context, page }
}

test('a new member of staff joins from an invitation link, once', async ({
  page,
  browser,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  const { dialog, code, link } = await createInvitation(page, 'Sam')
  const pending = dialog.getByRole('list', { name: 'Pending invitations' })
  // An invitation is for a budtender unless the owner chose another role (issue 32).
  await expect(pending).toContainText('Sam · Budtender · expires')

  const sam = await joinFromLink(browser, link, 'sam@humo.test')
  await expect(sam.page.getByLabel('Invitation code')).toHaveCount(0)
  await expect(sam.page.getByText('Total Products')).toBeVisible()
  // The code leaves the address bar once used.
  expect(new URL(sam.page.url()).search).toBe('')
  await sam.context.close()

  // Used: gone from the pending list, and refused to the next person.
  await leaveSettings(page)
  // (this spec makes the shop's only invitations)
  await expect((await openStaff(page)).getByText('No pending invitations.')).toBeVisible()
  const late = await joinFromLink(browser, link, 'late@humo.test')
  await expect(late.page.getByRole('alert')).toHaveText(
    'That invitation has already been used. Ask an admin for a new one.',
  )
  await expect(late.page.getByLabel('Invitation code')).toHaveValue(code)
  await expect(late.page.getByLabel('Email')).toHaveValue('late@humo.test')
  await expect(late.page.getByText('Total Products')).toHaveCount(0)
  await late.context.close()
})

test('a revoked invitation is refused', async ({ page, browser, baseURL }) => {
  await openDashboard(page, baseURL!)
  const { dialog, link } = await createInvitation(page, 'Temp')
  await dialog.getByRole('button', { name: 'Revoke invitation Temp' }).click()
  await expect(dialog.getByText('No pending invitations.')).toBeVisible()

  const temp = await joinFromLink(browser, link, 'temp@humo.test')
  await expect(temp.page.getByRole('alert')).toHaveText(
    'That invitation was withdrawn. Ask an admin for a new one.',
  )
  await expect(temp.page.getByText('Total Products')).toHaveCount(0)
  await temp.context.close()
})

test('an account whose email is not confirmed cannot be made staff by email', async ({
  page,
  baseURL,
}) => {
  // Anyone can register any address; nobody has followed a link to prove this one.
  const squatter = await nodeClient(baseURL!)
  expect(
    (await squatter.auth.signUp({ email: 'clerk@humo.test', password: 'squatter-pass-42' })).error,
  ).toBeNull()

  await openDashboard(page, baseURL!)
  const dialog = await openStaff(page)
  await dialog
    .getByLabel('Add staff: email (confirmed) or account id of an existing account')
    .fill('clerk@humo.test')
  await dialog.getByRole('button', { name: 'Add to staff' }).click()
  await expect(
    dialog.getByText(
      'The account clerk@humo.test has not confirmed its email address, so it cannot be made staff by email. Invite them instead: create a staff invitation and hand them its code or link.',
    ),
  ).toBeVisible()
})
