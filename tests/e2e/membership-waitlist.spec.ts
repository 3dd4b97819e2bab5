import { expect, test, type Page } from '@playwright/test'
import { adminClient, nodeClient, openDashboard } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

// Issue 33 (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): the home page's membership promo is a real waitlist. It says the
// membership has not started, refuses without the consent box, and stores the email with the
// consent's words and time, which the admin lists and exports.

const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'tablet', viewport: { width: 1024, height: 768 } },
] as const

type Entry = { email: string; consentText: string; consentedAt: string }

async function waitlist(baseURL: string): Promise<Entry[]> {
  const admin = await adminClient(baseURL)
  const answer = await admin.rpc('admin_membership_waitlist')
  if (answer.error) throw new Error(answer.error.message)
  return answer.data as Entry[]
}

const promo = (page: Page) => page.getByRole('region', { name: /membership/i })

for (const device of DEVICES) {
  test.describe(`on a ${device.name}`, () => {
    test.use({ viewport: device.viewport })
    test.beforeEach(async ({ context }) => passAgeGate(context))

    test('the waitlist stores what it says, and only with consent', async ({ page, baseURL }) => {
      const email = `wait-${device.name}-${Date.now()}@example.com`
      await page.goto('/')
      const section = promo(page)
      await section.scrollIntoViewIfNeeded()
      // What it is, truthfully: not a free trial of a membership that does not exist.
      await expect(section).toContainText("It hasn't started yet")
      await expect(page.getByText('Try the membership for free')).toHaveCount(0)
      const consent = section.getByRole('checkbox')
      const consentText = (await consent.evaluate(
        (box) => box.closest('label')?.textContent,
      ))!.trim()
      expect(consentText).toMatch(/^I agree that the shop may keep my email address/)

      await section.getByRole('textbox', { name: 'Email address' }).fill(email)
      await section.getByRole('button', { name: 'Join the waitlist' }).click()
      await expect(section.getByRole('status')).toHaveText(
        'Tick the box to agree before joining the waitlist.',
      )
      expect((await waitlist(baseURL!)).map((e) => e.email)).not.toContain(email)

      const before = Date.now()
      await consent.check()
      await section.getByRole('button', { name: 'Join the waitlist' }).click()
      await expect(section.getByRole('status')).toHaveText(
        new RegExp(`^You're on the waitlist\\. We'll email ${email.replace(/\./g, '\\.')} when`),
      )
      const entry = (await waitlist(baseURL!)).find((e) => e.email === email)
      expect(entry?.consentText).toBe(consentText)
      expect(Date.parse(entry!.consentedAt)).toBeGreaterThan(before - 60_000)

      // Joining again is a kind answer, not an error, and keeps one entry.
      await section.getByRole('textbox', { name: 'Email address' }).fill(email.toUpperCase())
      await consent.check()
      await section.getByRole('button', { name: 'Join the waitlist' }).click()
      await expect(section.getByRole('status')).toHaveText(/is already on the waitlist/)
      expect((await waitlist(baseURL!)).filter((e) => e.email === email)).toHaveLength(1)
    })
  })
}

test('the admin lists the waitlist and exports it as CSV', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  const email = `listed-${Date.now()}@example.com`
  const shopper = await nodeClient(baseURL!)
  const joined = await shopper.rpc('join_membership_waitlist', {
    p: {
      email,
      consent: true,
      consentText:
        'I agree that the shop may keep my email address to tell me when the membership starts, ' +
        'and to send me one confirmation now. I can ask to be removed at any time.',
    },
  })
  expect(joined.error).toBeNull()
  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Waitlist' }).click()
  const section = page.getByRole('region', { name: /^Membership waitlist/ })
  const table = section.getByRole('table', { name: 'Membership waitlist' })
  await expect(table.getByRole('row').filter({ hasText: email })).toBeVisible()
  const download = page.waitForEvent('download')
  await section.getByRole('button', { name: 'Export CSV' }).click()
  const file = await download
  const csv = await (await file.createReadStream()).toArray()
  const text = Buffer.concat(csv as Buffer[]).toString('utf8')
  expect(text.split(/\r?\n/)[0]).toBe('email,consented_at,consent_text,confirmation_email')
  expect(text).toContain(email)
})
