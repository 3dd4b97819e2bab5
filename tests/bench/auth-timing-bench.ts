// Issue 23, finding 5's timing figures, printed (never asserted): how long /auth/v1 takes to
// answer for an address with an account and for one without, interleaved so drift hits both
// alike. Sign-in with a wrong password (the issue measured 3–9 ms unknown vs 81–201 ms known),
// sign-up (new address vs existing), recover. Goal: the medians differ by less than 10 % of
// the sign-in median (docs/decisions/024-proven-addresses.md). The tests assert equal work by counting bcrypt calls.
// Run: npx tsx tests/bench/auth-timing-bench.ts [--runs 40]
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { startHumoBackend } from '../../supabase/local/server.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '40' } },
  strict: false,
  allowPositionals: true,
})
const runs = Math.max(5, Number(values.runs) || 40)

const median = (samples: number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const round = (n: number) => Math.round(n * 10) / 10

const backend = await startHumoBackend({
  dataDir: null,
  port: 0,
  quiet: true,
  seed: false,
  rateLimits: null,
})
const headers = { apikey: backend.anonKey, 'Content-Type': 'application/json' }
const post = async (path: string, body: unknown): Promise<number> => {
  const started = performance.now()
  const response = await fetch(`${backend.url}/auth/v1${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  })
  await response.arrayBuffer()
  return performance.now() - started
}

const password = 'correct horse battery'
await post('/signup', { email: 'known@example.com', password })
// Warm up bcrypt and the routes.
for (let i = 0; i < 3; i++)
  await post('/token?grant_type=password', { email: 'known@example.com', password: 'warm' })

const pairs: { label: string; known: () => Promise<number>; unknown: () => Promise<number> }[] = [
  {
    label: 'sign-in, wrong password',
    known: () => post('/token?grant_type=password', { email: 'known@example.com', password: 'x' }),
    unknown: () =>
      post('/token?grant_type=password', { email: 'nobody@example.com', password: 'x' }),
  },
  {
    label: 'sign-up',
    known: () => post('/signup', { email: 'known@example.com', password: 'another passphrase' }),
    unknown: (() => {
      let n = 0
      return () => post('/signup', { email: `new${++n}@example.com`, password })
    })(),
  },
  {
    label: 'recover',
    known: () => post('/recover', { email: 'known@example.com' }),
    unknown: () => post('/recover', { email: 'nobody@example.com' }),
  },
]

const figures: Figure[] = []
const details: Record<string, { known: number[]; unknown: number[] }> = {}
for (const pair of pairs) {
  const known: number[] = []
  const unknown: number[] = []
  for (let i = 0; i < runs; i++) {
    known.push(await pair.known())
    unknown.push(await pair.unknown())
  }
  details[pair.label] = { known: known.map(round), unknown: unknown.map(round) }
  const k = median(known)
  const u = median(unknown)
  console.log(
    `${pair.label}: known ${round(k)} ms, unknown ${round(u)} ms (median of ${runs}), difference ${round(Math.abs(k - u))} ms`,
  )
  figures.push(
    { label: `${pair.label}: median, address with an account`, value: round(k), unit: 'ms' },
    { label: `${pair.label}: median, address without one`, value: round(u), unit: 'ms' },
    {
      label: `${pair.label}: difference of the medians, % of the larger`,
      value: round((100 * Math.abs(k - u)) / Math.max(k, u)),
      unit: '%',
      goal: { op: '<', value: 10 },
    },
  )
}
await backend.close()

writeBenchFigures('auth-timing-bench', {
  title: 'Auth answers take as long for any address (issue 23, finding 5)',
  figures,
  notes: [
    `Each pair interleaved, ${runs} times, one request at a time, on an in-memory database without rate limits.`,
    'The issue measured sign-in at 3–9 ms for unknown emails and 81–201 ms for registered ones before the change.',
  ],
  details,
})
