// A test server for /auth/v1 alone: the real handler on a real in-memory database (bootstrap and
// migrations), with what the full server cannot take from a test — a password hasher that counts
// its bcrypt calls (so equal work is asserted by count, not by wall time), a limiter of the test's
// choice, and optionally a mailer.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { openDatabase } from '../db/database.ts'
import { createJwtKeys, loadJwtSecret } from './jwt-keys.ts'
import type { AuthMailer } from '../mail/auth-mailer.ts'
import type { RateLimiter } from '../http/rate-limits.ts'
import { bcryptHasher, handleAuth, type AuthContext, type PasswordHasher } from './auth-handler.ts'

export interface CountingHasher extends PasswordHasher {
  hashes: number
  compares: number
  reset(): void
}

export function countingHasher(): CountingHasher {
  const counter: CountingHasher = {
    hashes: 0,
    compares: 0,
    hash(password, cost) {
      counter.hashes++
      return bcryptHasher.hash(password, cost)
    },
    compare(password, hashed) {
      counter.compares++
      return bcryptHasher.compare(password, hashed)
    },
    reset() {
      counter.hashes = 0
      counter.compares = 0
    },
  }
  return counter
}

export interface AuthHarness {
  url: string
  anonKey: string
  db: PGlite
  hasher: CountingHasher
  ctx: AuthContext
  client(): SupabaseClient
  /** POSTs (or PUTs) raw text to /auth/v1<path>, with the anon key. */
  send(
    path: string,
    body: string,
    init?: { method?: string; headers?: Record<string, string> },
  ): Promise<Response>
  close(): Promise<void>
}

export async function startAuthHarness(
  options: { limiter?: RateLimiter | null; mailer?: AuthMailer | null } = {},
): Promise<AuthHarness> {
  const { db } = await openDatabase(null)
  const keys = await createJwtKeys(loadJwtSecret(null))
  const hasher = countingHasher()
  const ctx: AuthContext = {
    db,
    jwtSecret: keys.secret,
    hasher,
    limiter: options.limiter ?? null,
    mailer: options.mailer ?? null,
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    void handleAuth(req, res, ctx, url)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    anonKey: keys.anonKey,
    db,
    hasher,
    ctx,
    client: () =>
      createClient(url, keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        // Node 20 has no global WebSocket; supabase-js builds its realtime client regardless.
        realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      }),
    send: (path, body, init = {}) =>
      fetch(`${url}/auth/v1${path}`, {
        method: init.method ?? 'POST',
        headers: { apikey: keys.anonKey, 'Content-Type': 'application/json', ...init.headers },
        body,
      }),
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      await db.close()
    },
  }
}
