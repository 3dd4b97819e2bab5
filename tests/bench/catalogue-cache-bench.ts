// First-visit catalogue pull under load (issue 24): 50 shoppers at once asking pull_products for
// 1,000 rows, anonymously (served from the catalogue cache, catalogue-cache.ts) and signed in
// (read from the database every time, as before the cache). Closed loop, brotli accepted.
// Run: npx tsx tests/bench/catalogue-cache-bench.ts [--concurrency 50] [--seconds 6]
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { SignJWT } from 'jose'
import { startHumoBackend } from '../../supabase/local/server.ts'

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '6' },
  },
})
const concurrency = Number(values.concurrency)
const seconds = Number(values.seconds)

const backend = await startHumoBackend({ port: 0, dataDir: null, staticDir: null, quiet: true })
await backend.db.query(
  `insert into public.products (name, slug, sku, price, quantity_available, description, category_id)
   select 'Bench ' || i, 'bench-' || i, 'BENCH-' || i, 10 + i % 50, 100,
          repeat('A calm evening strain with notes of pine. ', 8), c.id
     from generate_series(1, 1000) i, (select id from public.categories limit 1) c`,
)
const userId = crypto.randomUUID()
await backend.db.query(
  `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', 'bench@humo.test', now())`,
  [userId],
)
const userToken = await new SignJWT({ role: 'authenticated', aud: 'authenticated' })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(userId)
  .setExpirationTime('1h')
  .sign(new TextEncoder().encode(backend.jwtSecret))

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
const body = JSON.stringify({
  after_modified: null,
  after_id: null,
  max_rows: 1000,
  behind_from: null,
})

function once(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${backend.url}/rest/v1/rpc/pull_products`,
      {
        method: 'POST',
        agent,
        headers: {
          apikey: backend.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Accept-Encoding': 'br, gzip',
        },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode === 200 ? resolve(0) : reject(new Error(`${res.statusCode}`)),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function run(label: string, token: string): Promise<void> {
  await once(token)
  const times: number[] = []
  const end = performance.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now()
        await once(token)
        times.push(performance.now() - start)
      }
    }),
  )
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  console.log(
    `${label}: c${concurrency} ${(times.length / seconds).toFixed(1)} req/s, p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms`,
  )
}

await run('anonymous first-visit pull (cached)', backend.anonKey)
await run('signed-in first-visit pull (uncached)', userToken)
agent.destroy()
await backend.close()
