// Issue 27: README.md's "Running it in a shop" lists every setting the project reads, and the
// systemd unit in deploy/ is one systemd accepts.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

/** Source files under `dir`, tests left out (they set variables, they are not settings). */
function sources(dir: string): string[] {
  const found: string[] = []
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) found.push(...sources(path))
    else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.|\.d\.ts$/.test(name)) found.push(path)
  }
  return found
}

/** Every NAME the code reads as process.env.NAME, env.NAME or env['NAME'] (Vite's own left out). */
function settingsRead(): string[] {
  const files = [
    ...sources('scripts'),
    ...sources('supabase/local'),
    ...sources('src'),
    ...sources('sw'),
    'vite.config.ts',
    'playwright.config.ts',
  ]
  const names = new Set<string>()
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const [, a, b] of text.matchAll(
      /\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g,
    ))
      names.add((a ?? b)!)
  }
  for (const builtIn of ['PROD', 'DEV', 'MODE', 'SSR', 'BASE_URL']) names.delete(builtIn)
  return [...names].sort()
}

describe('README.md, "Running it in a shop"', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Running it in a shop'))
  const shopSection = section.slice(0, section.indexOf('\n## ', 4))

  it('has one table row for every setting the project reads, and none for a setting it does not', () => {
    const documented = new Set(
      shopSection
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) =>
          [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!),
        ),
    )
    const read = settingsRead()
    expect(read).toEqual(expect.arrayContaining(['HOST', 'PORT', 'HUMO_TLS', 'HUMO_DATA_DIR']))
    expect(read.filter((name) => !documented.has(name))).toEqual([])
    expect([...documented].filter((name) => !read.includes(name))).toEqual([])
  })

  it('gives the Caddyfile and the proxy settings for a public domain', () => {
    expect(shopSection).toContain('reverse_proxy 127.0.0.1:3000')
    expect(shopSection).toContain('HUMO_TRUSTED_PROXIES=loopback')
  })
})

describe('deploy/humo.service', () => {
  const unit = join(root, 'deploy/humo.service')
  const text = readFileSync(unit, 'utf8')

  it('runs npm start, restarts after any exit and gives the stop its 10 s', () => {
    expect(text).toMatch(/^ExecStart=\/usr\/bin\/npm start$/m)
    expect(text).toMatch(/^Restart=always$/m)
    expect(text).toMatch(/^Environment=HUMO_TLS=local$/m)
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1])).toBeGreaterThan(10)
  })

  const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((path) =>
    existsSync(path),
  )
  it.skipIf(!analyze)(
    'passes systemd-analyze verify (skipped where systemd-analyze is not installed)',
    () => {
      const run = spawnSync(analyze!, ['verify', unit], { encoding: 'utf8' })
      // Its complaints (an unknown key, a missing binary) go to stderr, some with exit code 0.
      expect({ status: run.status, complaints: run.stderr.trim() }).toEqual({
        status: 0,
        complaints: '',
      })
    },
  )
})
