// `npm start`: install what is missing, build the app when its sources changed, then serve the
// shop, the admin and the embedded backend on one port (PORT, default 3000).
import { spawn, execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { ensureGenerated, ensurePackages } from './ensure.mjs'
import { isBuildFresh, writeBuildStamp } from './build-stamp.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

ensurePackages()
ensureGenerated()
if (!isBuildFresh(root)) {
  console.log('[humo] building the app…')
  execFileSync('npm', ['run', '-s', 'build:app'], { cwd: root, stdio: 'inherit' })
  writeBuildStamp(root)
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'supabase/local/main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
