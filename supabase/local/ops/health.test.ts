// @vitest-environment node
// /healthz and /readyz (issue 27): on the running server, while the database is stuck behind a
// transaction, before the start is done, and once the server is stopping.
import { PGlite } from '@electric-sql/pglite'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestBackend, type TestBackend } from '../../../tests/fixtures/backend.ts'
import { createHealthChecks, type HealthChecks } from './health.ts'

describe('on the running server', () => {
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startTestBackend()
  })
  afterAll(async () => {
    await backend?.close()
  })

  it('/healthz answers 200 {"status":"ok"} when the database answers', async () => {
    const response = await fetch(`${backend.url}/healthz`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  it('/readyz answers 200 once migrations and the seed are done', async () => {
    const response = await fetch(`${backend.url}/readyz`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ status: 'ready', seed: 'applied now' })
    const { rows } = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from supabase_migrations.schema_migrations',
    )
    expect(body.migrations).toBe(rows[0]!.n)
  })

  it('answers many probes in a row: no rate limit turns them into failures', async () => {
    for (let i = 0; i < 60; i++) {
      const response = await fetch(`${backend.url}/healthz`)
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
  })

  it('refuses other methods with 405', async () => {
    const response = await fetch(`${backend.url}/healthz`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('the checks themselves, on a real database', () => {
  let db: PGlite
  let server: Server
  let checks: HealthChecks
  let url: string
  beforeAll(async () => {
    db = await PGlite.create()
    checks = createHealthChecks(db, 300)
    server = createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname
      void checks.handle(req, res, pathname).then((handled) => {
        if (!handled) res.writeHead(404).end()
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()))
    if (!db.closed) await db.close()
  })

  it('/readyz is 503 until the start is done, then 200, then 503 while stopping', async () => {
    const before = await fetch(`${url}/readyz`)
    expect(before.status).toBe(503)
    expect(await before.json()).toMatchObject({ status: 'starting' })

    checks.ready({ migrations: 3, seed: 'off' })
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', migrations: 3, seed: 'off' })

    checks.stopping()
    const stopping = await fetch(`${url}/readyz`)
    expect(stopping.status).toBe(503)
    expect(await stopping.json()).toMatchObject({ status: 'stopping' })
  })

  it('/healthz is 503 with the reason while the database does not answer', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // A transaction that holds PGlite's only connection, as a stuck request would.
    const stuck = db.transaction(async (tx) => {
      await tx.query('select 1')
      await held
    })
    try {
      const response = await fetch(`${url}/healthz`)
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        status: 'unavailable',
        reason: 'the database did not answer within 300 ms',
      })
    } finally {
      release()
      await stuck
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200)

    await db.close()
    const closed = await fetch(`${url}/healthz`)
    expect(closed.status).toBe(503)
    expect(await closed.json()).toEqual({ status: 'unavailable', reason: 'the database is closed' })
  })
})
