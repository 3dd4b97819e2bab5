import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, expect, test } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { AGE_VERIFIED_KEY, passAgeGate } from './helpers/storefront'

// Chrome never offers installation in incognito, which Playwright's default contexts are; this
// test uses an ordinary (persistent) profile with the project's launch options.
test('Chromium finds the app installable, with its icons and shortcuts', async ({
  baseURL,
}, testInfo) => {
  const profile = mkdtempSync(path.join(tmpdir(), 'humo-profile-'))
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  })
  try {
    await context.addInitScript((key) => window.localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto('/')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    await page.reload()
    const cdp = await context.newCDPSession(page)
    await expect
      .poll(async () => {
        const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
        return installabilityErrors.map((e) => e.errorId)
      })
      .toEqual([])

    const { data } = await cdp.send('Page.getAppManifest')
    const manifest = JSON.parse(data ?? '{}') as {
      short_name: string
      icons: { purpose?: string; sizes: string }[]
      shortcuts: { name: string; url: string }[]
    }
    expect(manifest.short_name).toBe('Humo')
    expect(manifest.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512')).toBe(true)
    expect(manifest.shortcuts.map((s) => [s.name, s.url])).toEqual([
      ['Menu', '/menu'],
      ['Cart', '/cart'],
      ['Admin', '/admin'],
    ])
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
})

test('the header offers "Install app" while Chromium offers installation', async ({
  baseURL,
}, testInfo) => {
  const profile = mkdtempSync(path.join(tmpdir(), 'humo-profile-'))
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  })
  try {
    await context.addInitScript((key) => window.localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
    const page = context.pages()[0] ?? (await context.newPage())
    const errors: Error[] = []
    page.on('pageerror', (error) => errors.push(error))
    await page.goto('/')
    // Chromium makes its offer (beforeinstallprompt) once the manifest passes its checks.
    const install = page.getByRole('banner').getByRole('button', { name: 'Install app' })
    await expect(install).toBeVisible()
    // The button hands the offer to the browser's own dialog; an offer is used once.
    await install.click()
    await expect(install).toHaveCount(0)
    expect(errors).toEqual([])

    // Staff get the same offer in the back office's header, in a fresh tab of the profile.
    const admin = await context.newPage()
    await openDashboard(admin, baseURL ?? '')
    await expect(
      admin.getByRole('banner').getByRole('button', { name: 'Install app' }),
    ).toBeVisible()
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
})

test('no "Install app" where the browser offers nothing (incognito)', async ({ page }) => {
  await passAgeGate(page)
  await page.goto('/')
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await expect(page.getByRole('banner').getByRole('link', { name: /Humo/ })).toBeVisible()
  // In an ordinary profile the offer comes within a second of loading; give it ample time.
  await page.waitForTimeout(3000)
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0)
})
