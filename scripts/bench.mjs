// `npm run bench`: runs every benchmark in tests/bench and prints its figures. Benchmarks are
// measurements, never assertions; each also writes JSON into tests/bench/reports/.
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const benches = readdirSync(path.join(root, 'tests/bench')).filter((f) => f.endsWith('-bench.ts'))
for (const bench of benches) {
  console.log(`\n[humo] ▶ ${bench}`)
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join('tests/bench', bench), ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}
