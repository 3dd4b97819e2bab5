import { defineConfig } from '@playwright/test'
import { E2E_SETUP_CODE } from './tests/e2e/helpers/setup-code'

const PORT = Number(process.env.HUMO_E2E_PORT ?? 4321)

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's chromium; Playwright never downloads a browser here.
      executablePath: process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // Chromium 150 (Debian's, today) gives each navigation a new document host
        // (RenderDocument), and the network emulation behind context.setOffline() then no longer
        // reaches navigator.onLine there: a page reloaded offline says it is online. A real device
        // offline says so; the offline tests need the browser to, as it did before.
        '--disable-features=RenderDocument',
      ],
    },
  },
  // The same server `npm start` runs, on a fresh data folder.
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://localhost:${PORT}/humo-config.json`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      HUMO_DATA_DIR: '.humo-test-data/e2e',
      // The first admin's setup code, as a scripted install sets it (admin-auth.spec.ts types it).
      HUMO_SETUP_CODE: E2E_SETUP_CODE,
      // Every spec's browser comes from 127.0.0.1 and many order with the same email: limits
      // raised for this server, never turned off (tests/integration/rate-limits.test.ts checks the
      // defaults and "off").
      HUMO_RATE_LIMITS: [
        'place_order_ip=10000/3600',
        'place_order_device=10000/3600',
        'contact_ip=10000/3600',
        'contact_device=10000/3600',
        'track_order_ip=10000/900',
        'waitlist_ip=10000/3600',
        // Each spec signs staff and shoppers up and in from the same address.
        'sign_in_ip=10000/300',
        'sign_up_ip=10000/3600',
        'token_refresh_ip=10000/300',
      ].join(','),
      // Only the server's problems among the start-up lines, not a JSON line per request.
      HUMO_LOG_LEVEL: 'warn',
    },
    stdout: 'pipe',
  },
})
