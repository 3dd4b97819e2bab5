// A new device's first pull, page after page as the app's light client asks for it, is already in
// the catalogue cache when the device comes (supabase/local/cache/pull-warmer.ts, docs/decisions/046-first-sync-from-a-warm-cache.md), and a
// catalogue change still reaches it at once, the cache refilled once the catalogue is quiet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRpcClient } from '../../src/data/backend-client'
import { callPull, PULL_BATCH_SIZE, type PullCheckpoint } from '../../src/data/replication/rpc-pull'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server'
import { WARM_PAGE_ROWS } from '../../supabase/local/cache/pull-warmer'

type Row = { id: string; _modified: string; _deleted: boolean; name?: string }

let backend: HumoBackend

beforeAll(async () => {
  // Three pages of the app's size: 1,000, 1,000 and a short one.
  backend = await startHumoBackend({
    seedProducts: 2100,
    quiet: true,
    rateLimits: null,
    warmPulls: true,
  })
}, 120_000)
afterAll(async () => {
  await backend?.close()
})

/** A device's first pull, as the app makes it: the light client, pages of PULL_BATCH_SIZE. */
async function firstPull(): Promise<Row[]> {
  const client = createRpcClient({ supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey })
  const rows: Row[] = []
  let checkpoint: PullCheckpoint | undefined
  for (;;) {
    const page = await callPull<Row>(client, 'pull_products', checkpoint, PULL_BATCH_SIZE, null)
    rows.push(...page.rows)
    const last = page.rows.at(-1)
    if (!last || page.rows.length < PULL_BATCH_SIZE) return rows
    checkpoint = { modified: last._modified, id: last.id }
  }
}

/**
 * Renames every product without telling anyone: with triggers off no notification is sent, so the
 * cache keeps what it holds. A page served from the cache shows the old names, a fresh read these.
 */
async function renameUnheard(suffix: string): Promise<void> {
  await backend.db.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica')
    await tx.query(`update public.products set name = name || $1`, [suffix])
  })
}

describe('the first pull warmer', () => {
  it("has a new device's whole first pull in the cache, and lets a change through at once", async () => {
    expect(WARM_PAGE_ROWS).toBe(PULL_BATCH_SIZE)
    await backend.pullsWarmed()
    await renameUnheard(' Unheard')
    const served = (await firstPull()).filter((row) => !row._deleted)
    expect(served.length).toBe(2100)
    // Every page came from the cache the warmer filled: none has the unheard names.
    expect(served.filter((row) => row.name?.endsWith(' Unheard'))).toEqual([])

    // A change the catalogue hears (a product of the second page renamed): the next device sees
    // it at once, without waiting for the warmer, and every page read after the change.
    const changed = served[1500]!
    const renamed = await backend.db.query(
      `update public.products set name = 'Warmed Then Changed Kush' where id = $1`,
      [changed.id],
    )
    expect(renamed.affectedRows).toBe(1)
    const after = (await firstPull()).filter((row) => !row._deleted)
    expect(after.find((row) => row.id === changed.id)?.name).toBe('Warmed Then Changed Kush')
    expect(after.filter((row) => row.name?.endsWith(' Unheard')).length).toBe(2099)

    // Another change, and no device until the catalogue has been quiet: the warmer read it again,
    // and the next device is served from what it read.
    await backend.db.query(`update public.products set name = 'Changed Twice Kush' where id = $1`, [
      changed.id,
    ])
    await backend.pullsWarmed()
    await renameUnheard(' Again')
    const rewarmed = (await firstPull()).filter((row) => !row._deleted)
    expect(rewarmed.filter((row) => row.name?.endsWith(' Again'))).toEqual([])
    expect(rewarmed.find((row) => row.id === changed.id)?.name).toBe('Changed Twice Kush')
  })
})

describe('a device that comes right after a change', () => {
  it('has the warmer read the next pages ahead of it, without waiting for the catalogue to be quiet', async () => {
    // Quiet for ten minutes before the warmer reads by itself: only the device can start it.
    const shop = await startHumoBackend({
      seedProducts: 1100,
      quiet: true,
      rateLimits: null,
      warmPulls: { quietMs: 600_000 },
    })
    try {
      await shop.pullsWarmed()
      await shop.db.query(`update public.products set name = name || ' Changed'`)
      const client = createRpcClient({ supabaseUrl: shop.url, supabaseAnonKey: shop.anonKey })
      const first = await callPull<Row>(client, 'pull_products', undefined, PULL_BATCH_SIZE, null)
      expect(first.rows.length).toBe(PULL_BATCH_SIZE)
      // The first page was not in the cache: the warmer reads the second one now.
      await shop.pullsWarmed()
      await shop.db.transaction(async (tx) => {
        await tx.exec('set local session_replication_role = replica')
        await tx.query(`update public.products set name = name || ' Unheard'`)
      })
      const last = first.rows.at(-1)!
      const second = await callPull<Row>(
        client,
        'pull_products',
        { modified: last._modified, id: last.id },
        PULL_BATCH_SIZE,
        null,
      )
      const live = second.rows.filter((row) => !row._deleted)
      expect(live.length).toBe(100)
      expect(live.every((row) => row.name?.endsWith(' Changed'))).toBe(true)
    } finally {
      await shop.close()
    }
  }, 120_000)
})
