// The embedded Supabase stand-in (DESIGN.md §4): one Node HTTP server on one port that answers
// the unmodified supabase-js (/rest/v1, /auth/v1, /storage/v1 and the /realtime/v1 websocket),
// serves media from the storage folder, tells the built app where its backend is
// (/humo-config.json), and serves the app itself, its catalogue pages pre-rendered.
import type { PGlite } from '@electric-sql/pglite'
import { mkdtemp, rm } from 'node:fs/promises'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { applySeed } from '../seed/apply-seed.ts'
import { handleAuth } from './auth/auth-handler.ts'
import {
  backupSettings,
  createBackupService,
  type BackupManifest,
  type BackupService,
  type BackupSettings,
} from './ops/backup.ts'
import { createAuthMailer } from './mail/auth-mailer.ts'
import { startWaitlistMailer } from './mail/waitlist-mailer.ts'
import { openDatabase } from './db/database.ts'
import { createJwtKeys, loadJwtSecret } from './auth/jwt-keys.ts'
import {
  checkSmtpUrl,
  setOrderEmails,
  startOrderMailer,
  type OrderMailer,
} from './mail/order-mailer.ts'
import { handleRest, sendError } from './rest/rest-handler.ts'
import { CatalogueCache } from './cache/catalogue-cache.ts'
import { startPullWarmer, type PullWarmer } from './cache/pull-warmer.ts'
import { prepareSetupCode, type SetupCode } from './auth/setup-code.ts'
import { makePrivateDir, makeShopPrivate } from './db/private-files.ts'
import { PostgrestError } from './request/postgrest-errors.ts'
import { loadSchemaCache } from './rest/schema-cache.ts'
import { startRealtime, type RealtimeServer } from './realtime/realtime-server.ts'
import { createPrerenderer } from './site/prerender.ts'
import { requestScheme } from './http/client-address.ts'
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitRules } from './http/rate-limits.ts'
import { createRpcRateLimits } from './rest/rpc-rate-limits.ts'
import { startUnacceptedOrderSweep, type UnacceptedOrderSweep } from './ops/unaccepted-orders.ts'
import { startMaintenance, type Maintenance } from './ops/maintenance.ts'
import { API_CSP, createSecurityHeaders, SECURITY_HEADERS } from './http/security-headers.ts'
import { createStaticApp } from './site/static-app.ts'
import { handleStorage } from './storage/storage-api.ts'
import { createHealthChecks } from './ops/health.ts'
import { createServerMetrics } from './ops/metrics.ts'
import { createRequestObserver, type Logger, type RequestObserver } from './http/request-log.ts'
import { createHumoServer, type HumoTls } from './http/tls-server.ts'
import { servePublicObject, storageError } from './storage/storage-files.ts'

export interface HumoBackendOptions {
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Persist the database, storage and JWT secret here; null keeps everything in memory / temp. */
  dataDir?: string | null
  /** The built app (e.g. 'dist'); null serves no app. */
  staticDir?: string | null
  /** Seed the demo catalogue when the database is created. Default true. */
  seed?: boolean
  /** With seed: a generated catalogue of this many products instead of the demo one (benchmarks). */
  seedProducts?: number
  quiet?: boolean
  /** Order emails (docs/decisions/021-order-emails-from-a-queue.md); without an SMTP URL none are sent, queued or promised. */
  mail?: HumoMailOptions | null
  /**
   * The first admin's setup code (HUMO_SETUP_CODE; docs/decisions/025-setup-code-and-invitations.md). Without it the code is
   * kept in the data folder's setup-code file, or made at random when there is no data folder.
   */
  setupCode?: string | null
  /**
   * Rate limits (rate-limits.ts, HUMO_RATE_LIMITS); default DEFAULT_RATE_LIMITS, null turns them
   * all off (load tests only).
   */
  rateLimits?: RateLimitRules | null
  /** How often pending orders staff never accepted are cancelled (ms); default 60 000, 0 never. */
  unacceptedOrderSweepMs?: number
  /**
   * How often the tables past autovacuum's thresholds are vacuumed and analyzed (maintenance.ts,
   * docs/decisions/048-maintenance-instead-of-autovacuum.md), in ms; default 60 000, 0 never.
   */
  maintenanceMs?: number
  /**
   * Backups (backup.ts, docs/decisions/030-backups.md), with a data folder only: where, how many, and whether
   * the server takes one a day. Default: HUMO_BACKUP_DIR/HUMO_BACKUP_KEEP's defaults, no daily one.
   */
  backups?: (BackupSettings & { daily: boolean }) | null
  /**
   * HTTPS (tls-server.ts, docs/decisions/040-https-on-the-shops-network.md): the certificate to serve, plain HTTP on the same
   * port redirected to it. Default none: plain HTTP.
   */
  tls?: HumoTls | null
  /**
   * The log (request-log.ts, docs/decisions/043-health-logs-metrics-shutdown.md): one JSON line per request and the server's own
   * errors. Default none: no request lines, errors on the console (tests).
   */
  logger?: Logger | null
  /**
   * Keep a new device's first pull ready in the catalogue cache (pull-warmer.ts, docs/decisions/046-first-sync-from-a-warm-cache.md).
   * Default off (tests); `npm start` turns it on. `quietMs`: how long the catalogue must stay
   * unchanged before the warmer reads it again (default 1.5 s).
   */
  warmPulls?: boolean | { quietMs: number }
}

export interface HumoMailOptions {
  /** HUMO_SMTP_URL: smtp://user:password@host:587 or smtps://user:password@host:465. */
  smtpUrl?: string | null
  /** HUMO_MAIL_FROM: the From header; default the shop's name and email (Admin Settings). */
  from?: string | null
  /** HUMO_PUBLIC_URL: the shop's address in the emails' links; default this server's URL. */
  publicUrl?: string | null
  /** Retry delays and polling (tests shorten them); see OrderMailerOptions. */
  retryBaseMs?: number
  retryMaxMs?: number
  pollMs?: number
  maxAttempts?: number
  /** Where failed sends are reported; default console.warn unless quiet. */
  warn?: (message: string) => void
}

function checkPublicUrl(publicUrl: string): void {
  let url: URL | null = null
  try {
    url = new URL(publicUrl)
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(
      'HUMO_PUBLIC_URL must be an http:// or https:// address, e.g. https://humo.shop',
    )
}

export interface HumoBackend {
  url: string
  anonKey: string
  serviceRoleKey: string
  /** The HS256 secret; tests and benchmarks sign users' tokens with it. */
  jwtSecret: string
  /** The database itself, for tests that must act below the API (e.g. concurrent commits). */
  db: PGlite
  /** What main.ts prints about the first admin's setup code. */
  setup: SetupCode
  /** Makes a backup now (needs a data folder). */
  backup(): Promise<{ file: string; manifest: BackupManifest }>
  /** Resolves once a new device's first pull is in the cache (warmPulls), at once without. */
  pullsWarmed(): Promise<void>
  /**
   * Stops: no new connections, realtime sockets closed, then the database. With drainMs (a
   * shutdown, docs/decisions/043-health-logs-metrics-shutdown.md) the requests under way get that long to finish first; without,
   * open connections are cut at once (tests).
   */
  close(options?: { drainMs?: number }): Promise<void>
}

const API_PREFIXES = ['/rest/v1', '/auth/v1', '/storage/v1', '/realtime/v1']

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, x-supabase-api-version, x-upsert, cache-control',
  'Access-Control-Expose-Headers':
    'Content-Range, Content-Location, Content-Length, Content-Type, ETag, Range, X-Supabase-Api-Version',
  'Access-Control-Max-Age': '86400',
}

/** host[:port] as a browser sends it (a name, IPv4 or bracketed IPv6). */
const BROWSER_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

const isApiPath = (pathname: string): boolean =>
  API_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))

export async function startHumoBackend(options: HumoBackendOptions = {}): Promise<HumoBackend> {
  const { port = 0, host = '127.0.0.1', seed = true, quiet = false } = options
  const dataDir = options.dataDir ? resolve(options.dataDir) : null
  const mail = options.mail?.smtpUrl ? { ...options.mail, smtpUrl: options.mail.smtpUrl } : null
  // A mistyped setting stops the start with its reason instead of losing every email later.
  if (mail) checkSmtpUrl(mail.smtpUrl)
  if (mail?.publicUrl) checkPublicUrl(mail.publicUrl)
  const log = (message: string) => {
    if (!quiet) console.log(`[humo-backend] ${message}`)
  }
  /** A failure of the server's own: a JSON line with a logger (docs/decisions/043-health-logs-metrics-shutdown.md), else the console. */
  const reportError = (what: string, error: unknown) => {
    if (options.logger) options.logger.error({ err: error }, what)
    else console.error(`[humo-backend] ${what}:`, error)
  }

  /** A warning of the server's own: to the log when there is one (npm start), else the console. */
  const warn = (message: string) => {
    if (options.logger) options.logger.warn(message)
    else if (!quiet) console.warn(`[humo-backend] ${message}`)
  }
  const backupOptions = dataDir
    ? (options.backups ?? { ...backupSettings({}, dataDir), daily: false })
    : null
  let storageDir: string
  let tempStorage: string | null = null
  if (dataDir) {
    // Readable by the server's user only, whatever the umask, an older install's too (docs/decisions/052-private-data-folder.md).
    makeShopPrivate(dataDir, backupOptions?.dir ?? null, warn)
    storageDir = join(dataDir, 'storage')
    makePrivateDir(storageDir)
  } else {
    tempStorage = await mkdtemp(join(tmpdir(), 'humo-storage-'))
    storageDir = tempStorage
  }

  const { db, fresh, applied } = await openDatabase(dataDir ? join(dataDir, 'db') : null)
  // /healthz and /readyz (health.ts): /readyz says 503 until the start below is done.
  const health = createHealthChecks(db)
  let observer: RequestObserver | null = null
  const backups: BackupService | null =
    dataDir && backupOptions ? createBackupService(db, dataDir, backupOptions) : null
  const cleanUp = async () => {
    await backups?.close()
    const closingSweep = sweep
    sweep = null
    await closingSweep?.close()
    const closingMaintenance = maintenance
    maintenance = null
    await closingMaintenance?.close()
    const closingMailer = mailer
    mailer = null
    await closingMailer?.close()
    await unlistenSchema?.()
    await pullWarmer?.stop()
    await unlistenCatalogue?.()
    const closingRealtime = realtime
    realtime = null
    await closingRealtime?.close()
    await db.close()
    if (tempStorage) await rm(tempStorage, { recursive: true, force: true })
  }

  let server: Server
  let realtime: RealtimeServer | null = null
  let unlistenSchema: (() => Promise<void>) | null = null
  let unlistenCatalogue: (() => Promise<void>) | null = null
  let pullWarmer: PullWarmer | null = null
  let mailer: OrderMailer | null = null
  // The links in auth emails (docs/decisions/024-proven-addresses.md) point here; known once the server listens.
  let siteUrl = ''
  let sweep: UnacceptedOrderSweep | null = null
  let maintenance: Maintenance | null = null
  let keys: Awaited<ReturnType<typeof createJwtKeys>>
  let jwtSecret: string
  let setup: SetupCode
  try {
    if (applied.length) log(`applied ${applied.length} migration(s)`)
    if (fresh && seed) {
      const summary = await applySeed(
        db,
        storageDir,
        options.seedProducts === undefined ? {} : { products: options.seedProducts },
      )
      log(`seeded ${summary.products} products`)
    }
    // Before the first request, so no device is told emails are sent when none will be.
    await setOrderEmails(db, mail !== null)
    setup = await prepareSetupCode(db, { dataDir, code: options.setupCode ?? null })
    jwtSecret = loadJwtSecret(dataDir ? join(dataDir, 'jwt-secret') : null)
    keys = await createJwtKeys(jwtSecret)
    const cache = await loadSchemaCache(db)
    const serveApp = createStaticApp(options.staticDir ? resolve(options.staticDir) : null)
    const securityHeaders = createSecurityHeaders(
      options.staticDir ? resolve(options.staticDir) : null,
    )
    const prerender = createPrerenderer(db, options.staticDir ? resolve(options.staticDir) : null)
    /** Where the app finds its backend: this server, as the browser reached it. */
    const appConfig = (req: IncomingMessage) => {
      const proto = requestScheme(req)
      // A Host that is not host[:port] ("><script>…, a path) would make the app talk to, or
      // cache, an address the caller chose: the server's own address instead.
      const given = req.headers.host
      const hostHeader =
        given && BROWSER_HOST.test(given)
          ? given
          : `${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`
      return { supabaseUrl: `${proto}://${hostHeader}`, supabaseAnonKey: keys.anonKey }
    }
    const limiter = new RateLimiter(
      options.rateLimits === undefined ? { ...DEFAULT_RATE_LIMITS } : options.rateLimits,
    )
    const catalogueCache = new CatalogueCache()
    // Before the first request: every catalogue commit from now on empties the cache.
    unlistenCatalogue = await catalogueCache.listen(db)
    const rest = {
      db,
      cache,
      jwtSecret: keys.secret,
      beforeRpc: createRpcRateLimits(limiter),
      catalogueCache,
      onFirstPullMiss: () => pullWarmer?.readAhead(),
    }
    const auth = {
      db,
      jwtSecret: keys.secret,
      limiter,
      mailer: mail
        ? createAuthMailer({
            db,
            smtpUrl: mail.smtpUrl,
            from: mail.from ?? null,
            siteUrl: () => siteUrl,
            ...(mail.warn ? { warn: mail.warn } : {}),
          })
        : null,
    }
    const storage = { db, jwtSecret: keys.secret, storageDir }
    realtime = await startRealtime(db, keys.secret)
    const live = realtime
    // Metrics (metrics.ts) and the request log (request-log.ts), one observer for both.
    const metrics = createServerMetrics({
      db,
      jwtSecret: keys.secret,
      ordersEmailed: mail !== null,
      inFlight: () => observer?.inFlight ?? 0,
    })
    const requestObserver = createRequestObserver({
      logger: options.logger ?? null,
      onFinish: (finished) => metrics.requestFinished(finished),
    })
    observer = requestObserver
    // PostgREST's convention: `NOTIFY pgrst, 'reload schema'` after DDL reloads the schema cache;
    // the realtime capture triggers follow the publication at the same moment.
    unlistenSchema = await db.listen('pgrst', (payload) => {
      if (payload !== '' && payload !== 'reload schema') return
      void (async () => {
        rest.cache = await loadSchemaCache(db)
        await live.refresh()
      })().catch((error: unknown) => reportError('schema reload failed', error))
    })

    const storedContentType = async (bucket: string, name: string): Promise<string | null> => {
      const { rows } = await db.query<{ mimetype: string | null }>(
        `select metadata->>'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2`,
        [bucket, name],
      )
      return rows[0]?.mimetype ?? null
    }

    const isPublicBucket = async (bucket: string): Promise<boolean> => {
      const { rows } = await db.query<{ public: boolean }>(
        'select public from storage.buckets where id = $1',
        [bucket],
      )
      return rows[0]?.public ?? false
    }

    const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      let url: URL
      try {
        url = new URL(req.url ?? '/', 'http://localhost')
      } catch {
        // A request target no URL parser takes ('//', '//a:b'): a 400 with the usual headers.
        await securityHeaders(req, res, 'api')
        sendError(res, new PostgrestError(400, 'PGRST100', 'The request path is not a valid URL'))
        return
      }
      const { pathname } = url
      const method = req.method ?? 'GET'
      await securityHeaders(req, res, isApiPath(pathname) ? 'api' : 'app')
      if (await health.handle(req, res, pathname)) return
      if (await metrics.handle(req, res, pathname)) return

      if (isApiPath(pathname)) {
        for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
        if (method === 'OPTIONS') {
          const requested = req.headers['access-control-request-headers']
          if (requested) res.setHeader('Access-Control-Allow-Headers', requested)
          res.writeHead(204)
          res.end()
          return
        }
      }

      if (pathname === '/_humo/backup' && backups) {
        await backups.handle(req, res, keys.serviceRoleKey)
        return
      }
      if (pathname === '/rest/v1' || pathname.startsWith('/rest/v1/')) {
        await handleRest(req, res, rest, url)
        return
      }
      const object = /^\/storage\/v1\/object\/public\/([^/]+)\/(.+)$/.exec(pathname)
      if (object && (method === 'GET' || method === 'HEAD')) {
        let bucket: string
        let objectPath: string
        try {
          bucket = decodeURIComponent(object[1]!)
          objectPath = decodeURIComponent(object[2]!)
        } catch {
          storageError(res, 400, 'InvalidKey', 'The object name is not valid percent-encoded UTF-8')
          return
        }
        await servePublicObject(
          req,
          res,
          storageDir,
          bucket,
          objectPath,
          isPublicBucket,
          storedContentType,
        )
        return
      }
      if (pathname === '/auth/v1' || pathname.startsWith('/auth/v1/')) {
        await handleAuth(req, res, auth, url)
        return
      }
      if (pathname.startsWith('/storage/v1/')) {
        await handleStorage(req, res, storage, url)
        return
      }
      if (isApiPath(pathname)) {
        // A 404, not a 501: a path the server does not serve is the caller's mistake, and no
        // probe of unknown paths should read as a server failure.
        res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' })
        res.end(
          JSON.stringify({
            code: 404,
            error_code: 'not_found',
            msg: `${method} ${pathname} is not available in the embedded backend`,
          }),
        )
        return
      }
      if (pathname === '/humo-config.json') {
        res.writeHead(200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-cache',
        })
        // httpsUrl: where a page opened over plain HTTP sends people (index.html; docs/decisions/040-https-on-the-shops-network.md).
        const httpsUrl = /^https:\/\//i.test(options.mail?.publicUrl ?? '')
          ? options.mail?.publicUrl
          : null
        res.end(JSON.stringify({ ...appConfig(req), ...(httpsUrl ? { httpsUrl } : {}) }))
        return
      }
      if (await prerender(req, res, url, appConfig(req))) return
      serveApp(req, res)
    }

    server = createHumoServer(
      options.tls ?? null,
      requestObserver.wrap((req, res) => {
        route(req, res).catch((error: unknown) => {
          reportError('request failed', error)
          sendError(res, new PostgrestError(500, 'PGRST000', 'Internal server error'))
        })
      }),
    )
    // Requests Node's parser refuses (a header over 16 KB, a body on TRACE, a broken request
    // line) are answered here, not by Node's bare "400" without a header of ours.
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || error.code === 'ECONNRESET') {
        socket.destroy()
        return
      }
      const [status, reason, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'Request Timeout', 'The request took too long to arrive']
            : [400, 'Bad Request', 'The request is not valid HTTP']
      const body = JSON.stringify({ code: status, error_code: 'bad_request', msg: message })
      const headers = {
        ...SECURITY_HEADERS,
        'Content-Security-Policy': API_CSP,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
        Connection: 'close',
      }
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\n` +
          Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('') +
          `\r\n${body}`,
      )
    })
    // An Expect other than 100-continue: Node would answer a bare 417 without our headers.
    server.on('checkExpectation', (req, res) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
      res.setHeader('Content-Security-Policy', API_CSP)
      res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' })
      res.end(
        JSON.stringify({
          code: 417,
          error_code: 'expectation_failed',
          msg: 'Only Expect: 100-continue is supported; send the request without the Expect header',
        }),
      )
      req.resume()
    })
    server.on('upgrade', (req, socket, head) => {
      metrics.upgraded(socket)
      live.handleUpgrade(req, socket, head)
    })
    await new Promise<void>((done, fail) => {
      server.once('error', fail)
      server.listen(port, host, () => {
        server.off('error', fail)
        done()
      })
    })
    // Pending orders staff never accepted give their stock back (docs/decisions/026-rate-limits-and-unaccepted-orders.md): now, then each minute.
    sweep = startUnacceptedOrderSweep(db, {
      intervalMs: options.unacceptedOrderSweepMs ?? 60_000,
      warn: (message) => {
        if (!quiet) console.warn(`[humo-backend] ${message}`)
      },
    })
    if ((options.unacceptedOrderSweepMs ?? 60_000) > 0)
      sweep.runOnce().catch((error: unknown) => {
        if (!quiet) console.warn('[humo-backend] cancelling unaccepted orders failed:', error)
      })
    // PGlite has no autovacuum (docs/decisions/048-maintenance-instead-of-autovacuum.md): churned tables vacuumed and analyzed each minute.
    maintenance = startMaintenance(db, {
      intervalMs: options.maintenanceMs ?? 60_000,
      busy: () => (observer?.inFlight ?? 0) > 0,
      warn: (message) => reportError(message, null),
    })
    // In the background: the first visitor should not wait for the renderer to load.
    const listening = server.address() as AddressInfo
    prerender
      .warm({
        supabaseUrl: `${options.tls ? 'https' : 'http'}://${host}:${listening.port}`,
        supabaseAnonKey: keys.anonKey,
      })
      .catch((error: unknown) => reportError('pre-rendering failed', error))
    if (options.warmPulls) {
      const self = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
      pullWarmer = await startPullWarmer({
        db,
        url: `${options.tls ? 'https' : 'http'}://${self.includes(':') ? `[${self}]` : self}:${listening.port}`,
        anonKey: keys.anonKey,
        quietMs: typeof options.warmPulls === 'object' ? options.warmPulls.quietMs : undefined,
        warn: (message) => reportError(message, null),
      })
    }
  } catch (error) {
    await cleanUp()
    throw error
  }

  const address = server.address() as AddressInfo
  const urlHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  const url = `${options.tls ? 'https' : 'http'}://${urlHost}:${address.port}`
  siteUrl = mail?.publicUrl || url
  log(`listening on ${url}`)
  await backups?.started(url, (message) => console.warn(`[humo-backend] ${message}`))

  if (mail) {
    try {
      const orderMailer = await startOrderMailer({
        db,
        smtpUrl: mail.smtpUrl,
        from: mail.from ?? null,
        publicUrl: mail.publicUrl || url,
        ...(mail.retryBaseMs === undefined ? {} : { retryBaseMs: mail.retryBaseMs }),
        ...(mail.retryMaxMs === undefined ? {} : { retryMaxMs: mail.retryMaxMs }),
        ...(mail.pollMs === undefined ? {} : { pollMs: mail.pollMs }),
        ...(mail.maxAttempts === undefined ? {} : { maxAttempts: mail.maxAttempts }),
        log,
        warn:
          mail.warn ??
          ((message: string) => {
            if (!quiet) console.warn(`[humo-mail] ${message}`)
          }),
      })
      mailer = orderMailer
      // The waitlist's confirmations (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md) go through the same mail server.
      const waitlistMailer = await startWaitlistMailer({
        db,
        smtpUrl: mail.smtpUrl,
        from: mail.from ?? null,
        ...(mail.retryBaseMs === undefined ? {} : { retryBaseMs: mail.retryBaseMs }),
        ...(mail.pollMs === undefined ? {} : { pollMs: mail.pollMs }),
      })
      mailer = {
        close: () => Promise.all([orderMailer.close(), waitlistMailer.close()]).then(() => {}),
      }
    } catch (error) {
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      await cleanUp()
      throw error
    }
  }

  health.ready({
    migrations: (
      await db.query<{ n: number }>(
        'select count(*)::int as n from supabase_migrations.schema_migrations',
      )
    ).rows[0]!.n,
    seed: fresh ? (seed ? 'applied now' : 'off') : 'kept from an earlier start',
  })
  let closing: Promise<void> | null = null
  return {
    url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    jwtSecret,
    db,
    setup,
    backup() {
      if (!backups) return Promise.reject(new Error('Backups need a data folder'))
      return backups.backup()
    },
    async pullsWarmed() {
      await pullWarmer?.idle()
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        health.stopping()
        await pullWarmer?.stop()
        // NOTE: realtime first: server.close() waits for upgraded WebSocket connections, which
        // closeAllConnections() does not end.
        const closingRealtime = realtime
        realtime = null
        await closingRealtime?.close()
        const drainMs = closeOptions.drainMs ?? 0
        const draining = drainMs > 0 ? observer : null
        // node:http's close() also drops idle keep-alive connections at once, and an order a
        // client was sending on one at that very moment was reset instead of answered. Draining,
        // only the listening stops (node:net's close); busy connections finish their answer,
        // which closes them (`Connection: close`), and idle ones go once nothing is under way,
        // a request that came on one meanwhile answered first.
        const stopped = new Promise<void>((done) =>
          draining
            ? NetServer.prototype.close.call(server, () => done())
            : server.close(() => done()),
        )
        if (draining) {
          const until = Date.now() + drainMs
          do {
            await draining.drain(Math.max(0, until - Date.now()))
            server.closeIdleConnections()
          } while (draining.inFlight > 0 && Date.now() < until)
          // node:http's part of closing (its timeout checks); the listening is already closed.
          server.close()
        }
        server.closeAllConnections()
        await stopped
        await cleanUp()
      })()
      return closing
    },
  }
}
