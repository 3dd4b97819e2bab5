// /healthz and /readyz (issue 27, docs/decisions/043-health-logs-metrics-shutdown.md), for a service manager, a load balancer or
// a person with curl. /healthz: the database answers a trivial query within HEALTH_TIMEOUT_MS
// (PGlite has one connection: a query stuck behind a long transaction is an unhealthy server).
// /readyz: the start finished (migrations applied, the seed in, the server listening) and the
// server is not shutting down. Both are cheap, never rate limited, and say nothing personal.
import type { PGlite } from '@electric-sql/pglite'
import type { IncomingMessage, ServerResponse } from 'node:http'

export const HEALTH_TIMEOUT_MS = 2000

export interface Readiness {
  /** Migrations recorded in the database. */
  migrations: number
  seed: 'applied now' | 'kept from an earlier start' | 'off'
}

export interface HealthChecks {
  /** The start is done: /readyz answers 200 from now on. */
  ready(state: Readiness): void
  /** Shutting down: /readyz answers 503 so a balancer stops sending new requests. */
  stopping(): void
  /** Answers /healthz and /readyz; true when the path was one of them. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  })
  res.end(JSON.stringify(body))
}

/** Whether the database answers `select 1` within `timeoutMs`: null when it does, else why not. */
export async function databaseProblem(
  db: PGlite,
  timeoutMs = HEALTH_TIMEOUT_MS,
): Promise<string | null> {
  if (db.closed) return 'the database is closed'
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`the database did not answer within ${timeoutMs} ms`),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([
      db
        .query<{ one: number }>('select 1 as one')
        .then(({ rows }) =>
          rows[0]?.one === 1 ? null : 'the database answered something unexpected',
        ),
      late,
    ])
  } catch (error) {
    return `the database failed: ${(error as Error).message.slice(0, 200)}`
  } finally {
    clearTimeout(timer)
  }
}

export function createHealthChecks(db: PGlite, timeoutMs = HEALTH_TIMEOUT_MS): HealthChecks {
  let state: Readiness | null = null
  let stopping = false
  return {
    ready(readiness) {
      state = readiness
    },
    stopping() {
      stopping = true
    },
    async handle(req, res, pathname) {
      if (pathname !== '/healthz' && pathname !== '/readyz') return false
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD')
        send(res, 405, { status: 'error', reason: `${pathname} is read with GET` })
        return true
      }
      if (pathname === '/healthz') {
        const problem = await databaseProblem(db, timeoutMs)
        if (problem) send(res, 503, { status: 'unavailable', reason: problem })
        else send(res, 200, { status: 'ok' })
        return true
      }
      if (stopping) send(res, 503, { status: 'stopping', reason: 'the server is shutting down' })
      else if (!state)
        send(res, 503, {
          status: 'starting',
          reason: 'migrations and the seed are not done yet',
        })
      else send(res, 200, { status: 'ready', ...state })
      return true
    },
  }
}
