import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server.ts'
import { passAgeGate } from './helpers/storefront'

// Watermelon Sea Salt Gummies (supabase/seed/catalogue.ts).
const PRODUCT = '/product/watermelon-sea-salt-gummies'
const DEPLOYMENT_MARK = '<meta name="humo-deployment" content="2">'

/**
 * A second deployment of the built app: the index page gains a mark, and the service worker's
 * precache list gets the page's new revision, as a real rebuild would give it.
 */
function deployNewVersion(appDir: string): void {
  const indexPath = path.join(appDir, 'index.html')
  writeFileSync(
    indexPath,
    readFileSync(indexPath, 'utf8').replace('</head>', `${DEPLOYMENT_MARK}</head>`),
  )
  const swPath = path.join(appDir, 'sw.js')
  const sw = readFileSync(swPath, 'utf8')
  const entry = /\{"revision":"[0-9a-f]+","url":"index\.html"\}/
  expect(sw).toMatch(entry)
  writeFileSync(swPath, sw.replace(entry, '{"revision":"deployment-2","url":"index.html"}'))
}

test('an update shows the prompt and a reload keeps the cart', async ({ page, context }) => {
  test.setTimeout(120_000)
  // This test deploys twice, so it serves its own copy of dist/ from its own server and data.
  const root = mkdtempSync(path.join(tmpdir(), 'humo-update-'))
  const appDir = path.join(root, 'dist')
  cpSync('dist', appDir, { recursive: true })
  const start = (port = 0) =>
    startHumoBackend({
      port,
      dataDir: path.join(root, 'data'),
      staticDir: appDir,
      quiet: true,
    })
  let backend: HumoBackend | null = await start()
  const port = Number(new URL(backend.url).port)
  const origin = `http://localhost:${port}`
  try {
    await passAgeGate(context)
    await page.goto(`${origin}${PRODUCT}`)
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    // The first version's service worker installs and takes control (clientsClaim).
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null))
      .toBe('activated')

    // The first version kept copies of the catalogue's pages for its offline starts.
    const pagesCaches = () =>
      page.evaluate(async () =>
        (await caches.keys()).filter((name) => name.startsWith('humo-pages-')),
      )
    await expect.poll(pagesCaches).toHaveLength(1)
    const firstPages = (await pagesCaches())[0]

    // The new deployment: same address, new files, server restarted.
    await backend.close()
    backend = null
    deployNewVersion(appDir)
    backend = await start(port)

    // A navigation makes the browser look for a new service worker.
    await page.goto(`${origin}/cart`)
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' })
    await expect(prompt).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()
    // Until the user chooses, the page still runs the old version.
    await expect(page.locator('meta[name="humo-deployment"]')).toHaveCount(0)

    await prompt.getByRole('button', { name: 'Reload' }).click()

    // The reloaded page comes from the new worker's precache, and the cart is as it was.
    await expect(page.locator('meta[name="humo-deployment"]')).toHaveAttribute('content', '2')
    await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    await expect(page.getByText('Watermelon Sea Salt Gummies').first()).toBeVisible()
    await expect(prompt).toHaveCount(0)
    const workers = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return {
        controlled: navigator.serviceWorker.controller?.state ?? null,
        waiting: registration?.waiting ?? null,
      }
    })
    expect(workers).toEqual({ controlled: 'activated', waiting: null })
    // The first version's copies name its files: the new version drops them (docs/decisions/013-starts-from-a-kept-copy.md).
    const after = await pagesCaches()
    expect(after).not.toContain(firstPages)
    expect(after.every((name) => name === 'humo-pages-deployment-2')).toBe(true)
  } finally {
    await backend?.close()
    rmSync(root, { recursive: true, force: true })
  }
})
