// `npm run dev`: the embedded backend on HUMO_BACKEND_PORT (3000) beside Vite's dev server,
// which proxies /rest, /auth, /storage and /realtime to it.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const backendPort = process.env.HUMO_BACKEND_PORT ?? '3000'
const children = [
  spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: backendPort, HUMO_NO_STATIC: '1' },
  }),
  spawn(path.join(root, 'node_modules', '.bin', 'vite'), [], { cwd: root, stdio: 'inherit' }),
]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children)
  child.on('exit', (code) => {
    stop()
    process.exit(code ?? 0)
  })
