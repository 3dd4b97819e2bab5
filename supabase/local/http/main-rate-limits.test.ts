// `npm start`'s server (main.ts) and HUMO_RATE_LIMITS: "off" starts with a warning on stderr,
// a mistyped setting stops the start with its reason (docs/decisions/026-rate-limits-and-unaccepted-orders.md).
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
let dataDir: string | null = null

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  dataDir = null
})

/** Runs main.ts until it says it is running (then stops it) or exits; its output. */
async function start(rateLimits: string) {
  dataDir = await mkdtemp(join(tmpdir(), 'humo-main-'))
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'supabase/local/main.ts')], {
    cwd: repo,
    env: { ...process.env, PORT: '0', HUMO_DATA_DIR: dataDir, HUMO_RATE_LIMITS: rateLimits },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if (stdout.includes('Humo is running')) child.kill('SIGTERM')
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('exit', done))
  return { code, stdout, stderr }
}

describe('HUMO_RATE_LIMITS in npm start', () => {
  it('warns when the limits are off, and still starts', async () => {
    const { stdout, stderr } = await start('off')
    expect(stdout).toContain('Humo is running at http://localhost:')
    expect(stderr).toMatch(/WARNING: HUMO_RATE_LIMITS=off: .*not rate limited/)
  })

  it('stops the start on a mistyped setting, saying what is wrong', async () => {
    const { code, stdout, stderr } = await start('place_orders=5/60')
    expect(code).toBe(1)
    expect(stdout).not.toContain('Humo is running')
    expect(stderr).toContain('HUMO_RATE_LIMITS: "place_orders=5/60" is not name=max/seconds')
  })
})
