// Installs what a fresh clone is missing, so `npm start` and `npm test` are the only commands a
// person needs. Uses Node's built-ins only: it runs before node_modules exists.
//   node scripts/ensure.mjs            npm packages, generated code
//   node scripts/ensure.mjs --browser  also Debian's chromium for the end-to-end tests
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const quiet = process.argv.includes('--quiet')
const log = (msg) => quiet || console.log(`[humo] ${msg}`)

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { cwd: root, stdio: quiet ? 'ignore' : 'inherit', ...opts })
}

function hashOf(file) {
  return createHash('sha256')
    .update(readFileSync(path.join(root, file)))
    .digest('hex')
}

export function ensurePackages() {
  const stamp = path.join(root, 'node_modules', '.humo-lock-hash')
  const lockHash = hashOf('package-lock.json')
  const current = existsSync(stamp) ? readFileSync(stamp, 'utf8') : ''
  if (current !== lockHash) {
    // NOTE: not `npm ci`: some optional platform packages (rollup's android builds) are absent
    // from the registry this machine reaches, so npm leaves them out of the lock and `npm ci`
    // then refuses the lock. `npm install` follows the same lock and tolerates that.
    log('installing npm packages…')
    run('npm', ['install', '--no-audit', '--no-fund'], { stdio: 'inherit' })
    writeFileSync(stamp, hashOf('package-lock.json'))
  }
}

export function ensureGenerated() {
  if (!existsSync(path.join(root, 'styled-system', 'css'))) {
    log('generating the styled-system (panda codegen)…')
    run(path.join(root, 'node_modules', '.bin', 'panda'), ['codegen', '--silent'])
  }
  if (!existsSync(path.join(root, 'src', 'route-tree.gen.ts'))) {
    log('generating the route tree…')
    run(path.join(root, 'node_modules', '.bin', 'tsr'), ['generate'])
  }
}

export function ensureBrowser() {
  if (existsSync('/usr/bin/chromium')) return
  log("installing Debian's chromium for the end-to-end tests…")
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo']
  const apt = (...args) =>
    run(asRoot[0] ?? 'apt-get', asRoot.length ? ['apt-get', ...args] : args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  apt('update')
  apt('install', '-y', '--no-install-recommends', 'chromium')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensurePackages()
  ensureGenerated()
  if (process.argv.includes('--browser')) ensureBrowser()
}
