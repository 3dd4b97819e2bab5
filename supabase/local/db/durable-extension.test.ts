// @vitest-environment node
// Group commit's write-ahead rule (docs/decisions/041-group-commit.md, 045): a table or index growing by a page
// writes zeros, which describe nothing, so it must not sync the WAL of other commits on the event
// loop (Postgres itself never flushes WAL to extend a file). Any page with content still does.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { onEventLoopWalSyncs, openDatabase } from './database.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'humo-durable-extension-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

it('grows tables while other commits wait for the disk without syncing on the event loop', async () => {
  const { db } = await openDatabase(join(root, 'db'), { durable: true })
  try {
    await db.exec(`create table growing (id serial primary key, body text not null);
       alter table growing alter column body set storage main`)
    const before = onEventLoopWalSyncs(db)!
    // Forty commits at once, each adding a row of 3 KB: the table grows by a page every other row
    // while earlier commits' WAL waits for its (shared) fsync.
    await Promise.all(
      Array.from({ length: 40 }, () =>
        db.query(
          `insert into growing (body) select string_agg(md5(random()::text), '') from generate_series(1, 96)`,
        ),
      ),
    )
    const { rows } = await db.query<{ pages: number }>(
      `select pg_total_relation_size('growing') / 8192 as pages`,
    )
    expect(rows[0]!.pages).toBeGreaterThan(10)
    expect(onEventLoopWalSyncs(db)! - before).toBe(0)
  } finally {
    await db.close()
  }
}, 120_000)
