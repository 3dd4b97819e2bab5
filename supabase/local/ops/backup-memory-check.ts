// Measures the memory a backup (or a restore) takes beside its media, in a process of its own so
// the peak is this work's alone: used by backup.test.ts and tests/bench/backup-memory-bench.ts.
// Prints one JSON line: the process's peak resident memory (maxRSS, KiB) before and after.
//   tsx supabase/local/ops/backup-memory-check.ts backup <data folder> <backup folder>
//   tsx supabase/local/ops/backup-memory-check.ts restore <backup file> <data folder>
import { createBackup, restoreBackup } from './backup.ts'
import { openDatabase } from '../db/database.ts'

const [command, from, to] = process.argv.slice(2)
if (!from || !to || (command !== 'backup' && command !== 'restore')) {
  console.error('Usage: backup-memory-check.ts backup <data> <dir> | restore <file> <data>')
  process.exit(2)
}

if (command === 'backup') {
  // An in-memory database with the real schema: the media folder is what is measured.
  const { db } = await openDatabase(null)
  try {
    const before = process.resourceUsage().maxRSS
    const started = performance.now()
    const { file } = await createBackup(db, from, to)
    const after = process.resourceUsage().maxRSS
    console.log(JSON.stringify({ file, before, after, ms: performance.now() - started }))
  } finally {
    await db.close()
  }
} else {
  const before = process.resourceUsage().maxRSS
  const started = performance.now()
  await restoreBackup(from, to)
  const after = process.resourceUsage().maxRSS
  console.log(JSON.stringify({ before, after, ms: performance.now() - started }))
}
