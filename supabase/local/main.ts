// `npm start`'s server: the embedded backend serving the built app from dist/, with its data in
// .humo-data (or HUMO_DATA_DIR), sending order emails when HUMO_SMTP_URL is set. Prints one line
// when ready (and, with HTTPS, the addresses the shop's devices open) and closes the database on
// SIGINT/SIGTERM so PGlite flushes to disk.
import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { backupSettings } from './ops/backup.ts'
import { parseTrustedProxies, setTrustedProxies } from './http/client-address.ts'
import { keepNewFilesPrivate } from './db/private-files.ts'
import { parseRateLimits } from './http/rate-limits.ts'
import { createLogger, parseLogLevel, redactPersonalData } from './http/request-log.ts'
import { startHumoBackend } from './server.ts'
import { startMessages, tlsFromEnvironment } from './http/tls-settings.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))

/** How long a stop lets the requests under way finish; the process is gone by STOP_DEADLINE_MS. */
const DRAIN_MS = 7_000
const STOP_DEADLINE_MS = 9_500

/** A path as the person who ran `npm start` here would type it. */
const shortPath = (path: string) => {
  const near = relative(process.cwd(), path)
  return near && !near.startsWith('..') && !isAbsolute(near) ? near : path
}

async function main(): Promise<void> {
  // Whatever the shell's umask, what this process creates is its user's only (docs/decisions/052-private-data-folder.md).
  keepNewFilesPrivate()
  const port = Number(process.env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${process.env.PORT}`)
  // Rate limits (README.md, "Rate limits"): the defaults unless HUMO_RATE_LIMITS overrides them.
  const rateLimits = parseRateLimits(process.env.HUMO_RATE_LIMITS)
  // The log (docs/decisions/043-health-logs-metrics-shutdown.md): JSON lines on stdout, one per request at the default level.
  const logger = createLogger(parseLogLevel(process.env.HUMO_LOG_LEVEL))
  if (rateLimits === null)
    console.warn(
      'WARNING: HUMO_RATE_LIMITS=off: sign-in, sign-up, orders, contact messages and order lookups ' +
        'are not rate limited. Use this for load tests only, never for a shop people use.',
    )
  // Behind a reverse proxy (README.md, "Rate limits"): whose X-Forwarded-For names the caller.
  setTrustedProxies(parseTrustedProxies(process.env.HUMO_TRUSTED_PROXIES))
  const dataDir = process.env.HUMO_DATA_DIR || `${repo}.humo-data`
  // Backups (README.md, "Backups"): one a day unless HUMO_BACKUPS=off; `npm run backup` any time.
  const backups = backupSettings(process.env, dataDir)
  const host = process.env.HOST || '127.0.0.1'
  // HTTPS (README.md, "Running it in a shop"): HUMO_TLS=local, or HUMO_TLS_CERT and HUMO_TLS_KEY.
  const tls = await tlsFromEnvironment(process.env, dataDir, host)
  const backend = await startHumoBackend({
    port,
    host,
    tls,
    dataDir,
    backups,
    staticDir: `${repo}dist`,
    quiet: true,
    // The first admin's setup code (README.md, "The first admin"): random per install unless set.
    setupCode: process.env.HUMO_SETUP_CODE || null,
    rateLimits,
    logger,
    // A new device's first pull kept ready in the catalogue cache (docs/decisions/046-first-sync-from-a-warm-cache.md).
    warmPulls: process.env.HUMO_WARM_PULLS !== 'off',
    // Order emails (README.md, "Order emails"): none without HUMO_SMTP_URL.
    mail: {
      smtpUrl: process.env.HUMO_SMTP_URL || null,
      from: process.env.HUMO_MAIL_FROM || null,
      publicUrl: process.env.HUMO_PUBLIC_URL || null,
      // The one thing worth printing about mail: a send that failed (it is retried).
      // An SMTP server's answer can name the recipient: emails and numbers are blanked out.
      warn: (message) => logger.warn(`[humo-mail] ${redactPersonalData(message)}`),
    },
  })
  const actualPort = new URL(backend.url).port
  console.log(`Humo is running at ${tls ? 'https' : 'http'}://localhost:${actualPort}`)
  for (const line of startMessages({ tls, host, port: actualPort })) console.log(line)
  const { setup } = backend
  if (setup.status === 'ready')
    console.log(
      setup.fromEnvironment
        ? 'Setup code for the first admin: the value of HUMO_SETUP_CODE (enter it at /admin to claim the shop)'
        : `Setup code for the first admin: ${setup.code} (also in ${shortPath(setup.file ?? '')})`,
    )
  else if (setup.status === 'spent')
    console.warn(
      'WARNING: HUMO_SETUP_CODE was already used to claim this shop once; set a new value (or unset it for a random code) to create the first admin.',
    )

  // A stop (docs/decisions/043-health-logs-metrics-shutdown.md): no new connections, the requests under way finish (up to
  // DRAIN_MS), realtime sockets and then the database close; whatever hangs, the process is gone
  // by STOP_DEADLINE_MS, within the 10 s a service manager waits. A second Ctrl-C exits at once.
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') process.exit(130)
      return
    }
    stopping = true
    console.log(`Humo is stopping (${signal}): finishing the requests under way…`)
    setTimeout(() => {
      console.error(
        `Humo did not stop within ${STOP_DEADLINE_MS / 1000} s after ${signal}; exiting`,
      )
      process.exit(1)
    }, STOP_DEADLINE_MS).unref()
    backend.close({ drainMs: DRAIN_MS }).then(
      () => {
        console.log('Humo stopped.')
        process.exit(0)
      },
      (error: unknown) => {
        console.error(`Humo failed to stop cleanly after ${signal}:`, error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error('Humo failed to start:', error)
  process.exit(1)
})
