// `npm test`: install what is missing (npm packages, Debian's chromium), then type-check, lint,
// run the unit and integration tests (Vitest), build the app, check the storefront's JavaScript
// budget on that build and run the end-to-end tests (Playwright against the server `npm start`
// runs). Stops at the first failing step, except the budget: it is counted as a failed check in
// the closing line and the end-to-end tests still run.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { ensureBrowser, ensureGenerated, ensurePackages } from './ensure.mjs'
import { writeBuildStamp } from './build-stamp.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)

function step(title, cmd, args, env = {}, { fatal = true } = {}) {
  const started = Date.now()
  console.log(`\n[humo] ▶ ${title}`)
  try {
    execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  } catch {
    console.error(`[humo] ✖ ${title} failed`)
    if (fatal) process.exit(1)
    return false
  }
  console.log(`[humo] ✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  return true
}

ensurePackages()
ensureGenerated()
ensureBrowser()

const only = process.argv.slice(2)
const wants = (name) => only.length === 0 || only.includes(name)

rmSync(path.join(root, 'test-results'), { recursive: true, force: true })

if (wants('typecheck')) {
  step('route tree', bin('tsr'), ['generate'])
  step('type-check (app)', bin('tsc'), ['-p', 'tsconfig.app.json', '--noEmit'])
  step('type-check (service worker)', bin('tsc'), ['-p', 'tsconfig.sw.json', '--noEmit'])
  step('type-check (node, tests, backend)', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit'])
}
if (wants('lint')) {
  step('lint', bin('eslint'), ['.', '--max-warnings', '0'])
  step('format check', bin('prettier'), ['--check', '.', '--log-level', 'warn'])
}
if (wants('unit')) {
  step('unit and integration tests', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=test-results/vitest.json',
  ])
}
if (wants('postgres')) {
  step("schema on PostgreSQL 15 (hosted Supabase's version)", process.execPath, [
    'scripts/check-postgres.mjs',
  ])
}
// Checks outside Vitest and Playwright that count in the closing line (name → passed).
const checks = new Map()

if (wants('e2e') || wants('budget')) {
  step('build', 'npm', ['run', '-s', 'build:app'])
  writeBuildStamp(root)
  checks.set(
    'budget',
    step(
      'storefront JavaScript budget (250 KB gzipped, no admin code)',
      process.execPath,
      ['scripts/check-budget.mjs'],
      {},
      { fatal: false },
    ),
  )
}
if (wants('e2e')) {
  rmSync(path.join(root, '.humo-test-data'), { recursive: true, force: true })
  step('end-to-end tests', bin('playwright'), ['test'])
}

// One closing line that any CI can read: "N passed, N failed".
let passed = 0
let failed = 0
for (const ok of checks.values()) {
  if (ok) passed++
  else failed++
}
const vitestReport = path.join(root, 'test-results', 'vitest.json')
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
}
const playwrightReport = path.join(root, 'test-results', 'playwright.json')
if (existsSync(playwrightReport)) {
  const stats = JSON.parse(readFileSync(playwrightReport, 'utf8')).stats ?? {}
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0)
  failed += stats.unexpected ?? 0
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
