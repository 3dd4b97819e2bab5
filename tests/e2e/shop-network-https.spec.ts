import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, expect, request, test, type BrowserContext } from '@playwright/test'
import { spkiHash } from '../../supabase/local/http/tls'
import { ADMIN, signInThroughUi } from './helpers/admin'
import { E2E_SETUP_CODE } from './helpers/setup-code'
import { AGE_VERIFIED_KEY, passAgeGate } from './helpers/storefront'

// Issue 27: the shop opened from another device on the shop's network, through the machine's
// non-loopback address, as `HOST=0.0.0.0 HUMO_TLS=local npm start` serves it. Each test starts a
// server of its own (its own data folder and port, next to the e2e server's) with main.ts, the
// program `npm start` runs. The browser trusts the shop's certificate as a device that installed
// the shop's authority does (by its key, --ignore-certificate-errors-spki-list: a certificate
// Chromium then takes as valid, so the page is a secure context for real). Over plain HTTP the
// page says why the shop cannot work there, instead of a splash.

test.describe.configure({ mode: 'serial' })
test.setTimeout(240_000)

const BASE_PORT = Number(process.env.HUMO_E2E_PORT ?? 4321)

/** The machine's first non-loopback IPv4 address (what `hostname -I` shows first), if any. */
const address = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address

type Running = { process: ChildProcess; output: string[]; dataDir: string; port: number }

/** main.ts on 0.0.0.0 with a fresh data folder; resolves once it has printed what it prints. */
async function startShop(port: number, env: Record<string, string>): Promise<Running> {
  const dataDir = path.resolve(`.humo-test-data/e2e-network-${port}`)
  rmSync(dataDir, { recursive: true, force: true })
  const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '0.0.0.0',
      HUMO_DATA_DIR: dataDir,
      HUMO_SETUP_CODE: E2E_SETUP_CODE,
      HUMO_BACKUPS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(...chunk.toString().split('\n').filter(Boolean))
      // The setup code's line comes last of what it prints at a start (HUMO_SETUP_CODE is set).
      if (output.some((line) => line.startsWith('Setup code for the first admin'))) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.once('exit', (code) =>
      reject(new Error(`the shop exited (${code}): ${output.join('\n')}`)),
    )
  })
  return { process: child, output, dataDir, port }
}

async function stopShop(shop: Running | undefined) {
  if (!shop) return
  if (shop.process.exitCode === null) {
    const exited = new Promise((resolve) => shop.process.once('exit', resolve))
    shop.process.kill('SIGTERM')
    await exited
  }
  rmSync(shop.dataDir, { recursive: true, force: true })
}

/** The shop's first admin, created through the API as a scripted install would. */
async function createFirstAdmin(baseURL: string) {
  const api = await request.newContext({ baseURL, ignoreHTTPSErrors: true })
  try {
    const config = (await (await api.get('/humo-config.json')).json()) as {
      supabaseAnonKey: string
    }
    const headers = { apikey: config.supabaseAnonKey }
    expect((await api.post('/auth/v1/signup', { headers, data: ADMIN })).ok()).toBe(true)
    const token = await api.post('/auth/v1/token?grant_type=password', { headers, data: ADMIN })
    const { access_token } = (await token.json()) as { access_token: string }
    const claimed = await api.post('/rest/v1/rpc/claim_first_admin', {
      headers: { ...headers, Authorization: `Bearer ${access_token}` },
      data: { p_setup_code: E2E_SETUP_CODE },
    })
    expect(claimed.ok()).toBe(true)
  } finally {
    await api.dispose()
  }
}

test.describe('over HTTPS with HUMO_TLS=local', () => {
  let shop: Running | undefined
  test.afterAll(async () => stopShop(shop))

  test('a device on the network gets a secure context: the menu, install and the offline board', async ({
    browserName,
  }, testInfo) => {
    expect(browserName).toBe('chromium')
    test.skip(!address, 'this machine has no non-loopback IPv4 address to open the shop at')
    shop = await startShop(BASE_PORT + 7, { HUMO_TLS: 'local' })
    const origin = `https://${address}:${shop.port}`
    // What `npm start` prints: the address to open on the shop's network, and the trust page.
    expect(shop.output).toContain(`On the shop's network: ${origin}`)
    expect(shop.output.join('\n')).toContain(`open http://${address}:${shop.port}/humo-ca on it`)

    const leaf = readFileSync(path.join(shop.dataDir, 'tls', 'server.crt'), 'utf8')
    const launch = testInfo.project.use.launchOptions ?? {}
    const profile = mkdtempSync(path.join(tmpdir(), 'humo-profile-'))
    // A persistent profile: Chrome never offers installation in incognito.
    const context: BrowserContext = await chromium.launchPersistentContext(profile, {
      ...launch,
      args: [...(launch.args ?? []), `--ignore-certificate-errors-spki-list=${spkiHash(leaf)}`],
      baseURL: origin,
    })
    try {
      await context.addInitScript((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
      const page = context.pages()[0] ?? (await context.newPage())
      await page.goto('/menu/flower')
      expect(
        await page.evaluate(() => ({
          secure: window.isSecureContext,
          subtle: typeof crypto.subtle,
          uuid: typeof crypto.randomUUID,
        })),
      ).toEqual({ secure: true, subtle: 'object', uuid: 'function' })
      await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
      await expect(
        page.getByRole('list', { name: 'Products' }).getByRole('listitem').first(),
      ).toBeVisible()

      // The service worker installs and takes the page; Chromium finds the app installable.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 60_000,
      })
      const cdp = await context.newCDPSession(page)
      await expect
        .poll(async () => {
          const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
          return installabilityErrors.map((e) => e.errorId)
        })
        .toEqual([])

      // The back office's order board, then offline on the same device.
      await createFirstAdmin(origin)
      await signInThroughUi(page)
      await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
      await expect(page.getByTestId('order-card').first()).toBeVisible()
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await context.setOffline(true)
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
      await expect(page.getByTestId('sync-status')).toContainText('Offline')
      await expect(page.getByTestId('order-card').first()).toBeVisible()
      await context.setOffline(false)
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})

test.describe('over plain HTTP on the network', () => {
  let shop: Running | undefined
  test.afterAll(async () => stopShop(shop))

  test('the page says to open the shop over HTTPS, not a splash that never ends', async ({
    browser,
  }) => {
    test.skip(!address, 'this machine has no non-loopback IPv4 address to open the shop at')
    shop = await startShop(BASE_PORT + 8, {})
    const origin = `http://${address}:${shop.port}`
    expect(shop.output.join('\n')).toContain('Other devices need HTTPS to use the shop')
    const context = await browser.newContext({ baseURL: origin })
    try {
      await passAgeGate(context)
      const page = await context.newPage()
      for (const path of ['/menu/flower', '/admin']) {
        await page.goto(path)
        const alert = page.getByRole('alert')
        await expect(alert).toContainText('This shop needs a secure connection')
        await expect(alert).toContainText('Open this shop over HTTPS')
        await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0)
        expect(await page.evaluate(() => window.isSecureContext)).toBe(false)
      }
    } finally {
      await context.close()
    }
  })
})

test('a device database that does not open shows why and "Try again", never an endless splash', async ({
  page,
}) => {
  await passAgeGate(page)
  // As a private window that refuses storage does.
  await page.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError')
    }
  })
  for (const path of ['/menu/flower', '/admin']) {
    await page.goto(path)
    const alert = page.getByRole('alert')
    await expect(alert).toContainText('The shop could not open its storage on this device')
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible()
  }
})
