// The server's log (issue 27, docs/decisions/043-health-logs-metrics-shutdown.md): one JSON line per request on stdout through
// pino (time, method, route, path, status, duration, request id) and the server's own warnings
// and errors as JSON lines too. Nothing personal goes in: no query-string values (PostgREST
// filters carry emails and phones), no path segment that looks like an id, a token or an
// address, no headers, no caller address. Every response gets an X-Request-Id (the caller's own
// when it sent a plain one) so a complaint can be matched to its line.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { pino, type DestinationStream, type Level, type Logger } from 'pino'

export type { Logger } from 'pino'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const

/**
 * HUMO_LOG_LEVEL: unset for info (one line per request); warn or error for only problems; off for
 * nothing; debug and trace are accepted (the server writes nothing more at them today).
 */
export function parseLogLevel(value: string | undefined | null): Level | 'silent' {
  const level = (value ?? '').trim().toLowerCase()
  if (level === '') return 'info'
  if (level === 'off' || level === 'silent') return 'silent'
  if ((LEVELS as readonly string[]).includes(level)) return level as Level
  throw new Error(
    `HUMO_LOG_LEVEL must be one of off, error, warn, info, debug, trace; got ${value?.trim()}`,
  )
}

/** A logger writing JSON lines to `destination` (default stdout). */
export function createLogger(
  level: Level | 'silent',
  destination: DestinationStream = pino.destination({ fd: 1, sync: true }),
): Logger {
  return pino(
    {
      level,
      // No pid or hostname on every line: one process, one machine.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
    },
    destination,
  )
}

/**
 * An error as a log line may keep it: its kind, code, message and stack, never Postgres' detail
 * (e.g. `Key (email)=(…) already exists`) or a request's parameters. Messages are redacted too.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: redactPersonalData(String(error)) }
  const code = (error as { code?: unknown }).code
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: redactPersonalData(error.message),
    ...(error.stack ? { stack: redactPersonalData(error.stack) } : {}),
  }
}

/**
 * A failure inside a part of the server that has no logger of its own (auth, storage, realtime,
 * static files, pre-rendering): one JSON line on stderr, its error passed through serializeError
 * so a Postgres detail such as `Key (email)=(…)` or a token never reaches the log.
 */
export function reportServerError(message: string, error: unknown): void {
  let level: Level | 'silent' = 'error'
  try {
    level = parseLogLevel(process.env.HUMO_LOG_LEVEL)
  } catch {
    // the start refused the setting already; an error is still worth a line
  }
  if (level === 'silent' || level === 'fatal') return
  console.error(
    JSON.stringify({ level: 'error', time: Date.now(), msg: message, err: serializeError(error) }),
  )
}

const EMAIL = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+\.[a-z]{2,}/gi
// Seven digits or more, with the usual separators: a phone number or something as private.
const LONG_NUMBER = /\+?\(?\d[\d ().-]{5,}\d/g
const BEARER = /\b(bearer\s+)?ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/gi

/** Emails, phone-like numbers and JWTs in a free text (an SMTP server's answer) blanked out. */
export function redactPersonalData(text: string): string {
  return text
    .replace(BEARER, '[token]')
    .replace(EMAIL, '[email]')
    .replace(LONG_NUMBER, (found) => (found.replace(/\D/g, '').length >= 7 ? '[number]' : found))
}

/**
 * The route a path belongs to, for metrics labels and the log: a bounded set of templates
 * (a table or function name is the caller's choice, so it never becomes a label of its own).
 */
export function routeOf(pathname: string): string {
  if (pathname === '/rest/v1' || pathname === '/rest/v1/') return '/rest/v1'
  if (/^\/rest\/v1\/rpc\/[^/]+$/.test(pathname)) return '/rest/v1/rpc/:fn'
  if (/^\/rest\/v1\/[^/]+$/.test(pathname)) return '/rest/v1/:table'
  if (pathname.startsWith('/auth/v1/admin/')) return '/auth/v1/admin/*'
  const auth = /^\/auth\/v1\/([a-z]+)$/.exec(pathname)?.[1]
  if (auth && AUTH_ENDPOINTS.has(auth)) return `/auth/v1/${auth}`
  if (/^\/storage\/v1\/object\/public\/[^/]+\/.+$/.test(pathname))
    return '/storage/v1/object/public/:bucket/*'
  if (pathname.startsWith('/storage/v1/')) return '/storage/v1/*'
  if (pathname.startsWith('/realtime/v1/')) return '/realtime/v1/*'
  if (FIXED_PATHS.has(pathname)) return pathname
  if (/^\/assets\/[^/]+$/.test(pathname)) return '/assets/:file'
  if (/^\/(rest|auth|storage|realtime)\/v1(\/|$)/.test(pathname)) return '(unknown api)'
  // Everything else is answered by the app (its pages, its static files) or is a 404.
  return '(app)'
}

const AUTH_ENDPOINTS = new Set([
  'token',
  'signup',
  'user',
  'logout',
  'recover',
  'verify',
  'otp',
  'settings',
  'health',
  'resend',
  'factors',
  'reauthenticate',
  'invite',
])

const FIXED_PATHS = new Set([
  '/',
  '/healthz',
  '/readyz',
  '/metrics',
  '/humo-config.json',
  '/humo-ca.crt',
  '/_humo/backup',
  '/sw.js',
  '/manifest.webmanifest',
  '/favicon.ico',
  '/index.html',
])

/** A path segment that can stay in a log line: a plain word, not an id, a token or an address. */
const PLAIN_SEGMENT = /^[A-Za-z][A-Za-z0-9_.-]{0,47}$/
const STATIC_FILE = /\.(js|css|woff2?|png|webp|avif|jpe?g|svg|ico|json|webmanifest)$/
/** A product or category slug: lowercase words joined by hyphens. */
const SLUG = /^[a-z]+(-[a-z0-9]+)*$/
const looksPrivate = (segment: string) =>
  !PLAIN_SEGMENT.test(segment) ||
  /\d{4,}/.test(segment) ||
  // Long and neither a built file nor a slug: a token (an order secret is 43 base64url letters).
  (segment.length >= 20 && !STATIC_FILE.test(segment) && !SLUG.test(segment))

/**
 * The path as the log keeps it: each segment that is not a plain word becomes ":x", and the query
 * string keeps its parameter names only (`?select&email`), never a value.
 */
export function loggedPath(rawUrl: string): string {
  const queryAt = rawUrl.indexOf('?')
  const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt)
  const path = pathname
    .split('/')
    .map((segment, i) => (i === 0 || segment === '' || !looksPrivate(segment) ? segment : ':x'))
    .join('/')
    .slice(0, 200)
  if (queryAt === -1) return path
  const names = rawUrl
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => pair.split('=')[0] ?? '')
    .filter((name) => name !== '')
    .map((name) => (PLAIN_SEGMENT.test(name) && !/\d{4,}/.test(name) ? name : ':x'))
  return names.length ? `${path}?${[...new Set(names)].slice(0, 20).join('&')}` : path
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/

/** The caller's X-Request-Id when it is a plain token (a proxy's), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  const id = Array.isArray(given) ? given[0] : given
  return id && REQUEST_ID.test(id) && !/\d{7,}/.test(id) ? id : randomUUID()
}

export interface FinishedRequest {
  method: string
  route: string
  status: number
  seconds: number
}

export interface RequestObserver {
  /** Wraps the server's request handler: request id, log line, metrics, in-flight count. */
  wrap(handler: RequestListener): RequestListener
  /** Requests being answered right now. */
  readonly inFlight: number
  /**
   * From now on every response closes its connection (answers already under way included), so
   * keep-alive clients leave; resolves when no request is in flight or after `ms`.
   */
  drain(ms: number): Promise<boolean>
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export function createRequestObserver(options: {
  logger: Logger | null
  onFinish?: (request: FinishedRequest) => void
}): RequestObserver {
  const { logger, onFinish } = options
  const active = new Set<ServerResponse>()
  let draining = false
  let idle: (() => void) | null = null
  const finished = (res: ServerResponse) => {
    active.delete(res)
    if (active.size === 0) idle?.()
  }
  return {
    wrap(handler) {
      return (req, res) => {
        const started = process.hrtime.bigint()
        const id = requestIdOf(req)
        res.setHeader('X-Request-Id', id)
        if (draining) res.setHeader('Connection', 'close')
        active.add(res)
        let done = false
        const end = () => {
          if (done) return
          done = true
          finished(res)
          const seconds = Number(process.hrtime.bigint() - started) / 1e9
          const rawMethod = req.method ?? 'GET'
          const method = METHODS.has(rawMethod) ? rawMethod : 'OTHER'
          let pathname = '/'
          try {
            pathname = new URL(req.url ?? '/', 'http://localhost').pathname
          } catch {
            pathname = '(invalid)'
          }
          const route = routeOf(pathname)
          // A response the client gave up on before it ended: its status is what we meant to send.
          const aborted = !res.writableFinished
          onFinish?.({ method, route, status: res.statusCode, seconds })
          logger?.info(
            {
              reqId: id,
              method,
              route,
              path: loggedPath(req.url ?? '/'),
              status: res.statusCode,
              ms: Math.round(seconds * 10_000) / 10,
              ...(aborted ? { aborted: true } : {}),
            },
            'request',
          )
        }
        res.once('finish', end)
        res.once('close', end)
        handler(req, res)
      }
    },
    get inFlight() {
      return active.size
    },
    drain(ms) {
      draining = true
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close')
      if (active.size === 0) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          idle = null
          resolve(false)
        }, ms)
        idle = () => {
          clearTimeout(timer)
          idle = null
          resolve(true)
        }
      })
    },
  }
}
