// Prometheus metrics at /metrics (issue 27, docs/decisions/043-health-logs-metrics-shutdown.md), with prom-client: requests and
// their latency by route template (a bounded set, request-log.ts's routeOf), how many database
// calls wait for PGlite's single connection, open realtime sockets, order emails waiting to be
// sent, and Node's process metrics. One registry per server, so tests can run several. Answered
// to the machine itself (a loopback caller, as client-address.ts tells it) or to an admin's token.
import type { PGlite } from '@electric-sql/pglite'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { peerAddress } from '../http/client-address.ts'
import { authenticate, withRequestRole } from '../request/request-context.ts'
import { PostgrestError } from '../request/postgrest-errors.ts'
import type { FinishedRequest } from '../http/request-log.ts'

export interface ServerMetrics {
  registry: Registry
  /** A request answered (request-log.ts's observer calls it). */
  requestFinished(request: FinishedRequest): void
  /** A socket taken over for a WebSocket: counted while it is open. */
  upgraded(socket: Duplex): void
  /** Answers GET /metrics; true when the path was /metrics. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>
}

interface QueueCounts {
  waiting: number
  running: number
}

type Exclusive = <T>(work: () => Promise<T>) => Promise<T>

const queues = new WeakMap<PGlite, QueueCounts>()

/**
 * Counts the calls waiting for PGlite's connection. Every db.query, db.exec and db.transaction
 * goes through its `_runExclusiveTransaction` lock, one at a time: wrapping that method of this
 * instance sees each call arrive and start. A PGlite without it (a future version) is left alone
 * and the gauge reads -1.
 */
export function watchDatabaseQueue(db: PGlite): QueueCounts | null {
  const known = queues.get(db)
  if (known) return known
  const target = db as unknown as { _runExclusiveTransaction?: Exclusive }
  const original = target._runExclusiveTransaction
  if (typeof original !== 'function') return null
  const counts: QueueCounts = { waiting: 0, running: 0 }
  const wrapped: Exclusive = (work) => {
    counts.waiting++
    let started = false
    const start = () => {
      if (started) return
      started = true
      counts.waiting--
      counts.running++
    }
    const run = original.call(db, async () => {
      start()
      return work()
    }) as Promise<Awaited<ReturnType<typeof work>>>
    return run.finally(() => {
      // A call refused before it ran (the database closed) leaves the queue all the same.
      start()
      counts.running--
    })
  }
  target._runExclusiveTransaction = wrapped
  queues.set(db, counts)
  return counts
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/

/**
 * The machine itself: a loopback peer as client-address.ts reads it (a trusted proxy's
 * X-Forwarded-For names the real caller). A request that carries forwarding headers the server
 * did not take from a trusted proxy is someone else's, relayed: never local.
 */
export function isLocalCaller(req: IncomingMessage): boolean {
  const address = peerAddress(req)
  if (!LOOPBACK.test(address)) return false
  const forwarded =
    req.headers['x-forwarded-for'] !== undefined ||
    req.headers.forwarded !== undefined ||
    req.headers['x-real-ip'] !== undefined
  if (!forwarded) return true
  const socket = (req.socket?.remoteAddress ?? '').replace(/^::ffff:/, '')
  // Forwarded by a trusted proxy for a loopback caller: peerAddress walked to another hop.
  return socket !== address
}

export function createServerMetrics(options: {
  db: PGlite
  jwtSecret: Uint8Array
  /** Whether order emails are sent at all (without SMTP the queue is not filled). */
  ordersEmailed: boolean
  /** Requests being answered now (request-log.ts's observer). */
  inFlight?: () => number
}): ServerMetrics {
  const { db, jwtSecret } = options
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'humo_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'humo_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const queue = watchDatabaseQueue(db)
  new Gauge({
    name: 'humo_db_queue_depth',
    help: 'Database calls waiting for the single PGlite connection (-1: not measurable)',
    registers: [registry],
    collect() {
      this.set(queue ? queue.waiting : -1)
    },
  })
  new Gauge({
    name: 'humo_db_calls_running',
    help: 'Database calls holding the PGlite connection now (0 or 1)',
    registers: [registry],
    collect() {
      this.set(queue ? queue.running : -1)
    },
  })
  new Gauge({
    name: 'humo_http_requests_in_flight',
    help: 'HTTP requests being answered now (this scrape included)',
    registers: [registry],
    collect() {
      this.set(options.inFlight?.() ?? 0)
    },
  })
  let sockets = 0
  new Gauge({
    name: 'humo_realtime_connections',
    help: 'Open realtime (WebSocket) connections',
    registers: [registry],
    collect() {
      this.set(sockets)
    },
  })
  new Gauge({
    name: 'humo_pending_emails',
    help: 'Order emails queued and not yet sent (0 when order emails are off, -1 unreadable)',
    registers: [registry],
    async collect() {
      if (!options.ordersEmailed) {
        this.set(0)
        return
      }
      try {
        const { rows } = await db.query<{ pending: number }>(
          `select count(*)::int as pending from private.order_emails where status = 'queued'`,
        )
        this.set(rows[0]?.pending ?? 0)
      } catch {
        // A closing database must not turn the whole scrape into a 500.
        this.set(-1)
      }
    },
  })

  const refuse = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    })
    res.end(JSON.stringify({ code: status, error_code: 'metrics_refused', msg: message }))
  }

  /** Null when allowed, else why not. */
  const refusal = async (req: IncomingMessage): Promise<[number, string] | null> => {
    if (isLocalCaller(req)) return null
    const hasToken = Boolean(req.headers.authorization ?? req.headers.apikey)
    if (!hasToken)
      return [
        401,
        "Metrics are answered only to this machine or to an admin: send an admin's access token (Authorization: Bearer …)",
      ]
    let auth: Awaited<ReturnType<typeof authenticate>>
    try {
      auth = await authenticate(req, jwtSecret)
    } catch (error) {
      if (error instanceof PostgrestError) return [401, `Metrics: ${error.message}`]
      throw error
    }
    if (auth.role === 'service_role') return null
    if (auth.role === 'authenticated') {
      const admin = await withRequestRole(
        db,
        auth,
        { method: 'GET', path: '/metrics', headers: {}, readOnly: true },
        async (tx) =>
          (await tx.query<{ admin: boolean }>('select public.is_admin() as admin')).rows[0]?.admin,
      )
      if (admin) return null
    }
    return [403, 'Metrics are answered only to this machine or to an admin of the shop']
  }

  return {
    registry,
    requestFinished({ method, route, status, seconds }) {
      requests.inc({ method, route, status: String(status) })
      latency.observe({ method, route }, seconds)
    },
    upgraded(socket) {
      sockets++
      socket.once('close', () => sockets--)
    },
    async handle(req, res, pathname) {
      if (pathname !== '/metrics') return false
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD')
        refuse(res, 405, 'Metrics are read with GET')
        return true
      }
      const refused = await refusal(req)
      if (refused) {
        refuse(res, ...refused)
        return true
      }
      const body = await registry.metrics()
      res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' })
      res.end(req.method === 'HEAD' ? undefined : body)
      return true
    },
  }
}
