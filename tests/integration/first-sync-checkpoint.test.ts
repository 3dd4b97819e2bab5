// Issue 39 (docs/decisions/050-first-sync-without-a-retry-wait.md): a first pull written in bulk ends with the checkpoint of where it ended,
// and neither a slow nor a failed write of that checkpoint keeps the device from "in sync" or sends
// it to RxDB's retry timer (5 s). Real storage (Dexie over fake-indexeddb), real backend; the
// faults are made in the storage under the replication's meta instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { testStorage } from '../fixtures/memory-database'
import { createHumoDatabase, type HumoDatabase } from '../../src/data/database'
import type { RpcAnswer, RpcClient } from '../../src/data/backend-client'
import { replicateProducts } from '../../src/data/replication/catalogue-replication'

let backend: TestBackend
let active: { id: string; _modified: string }[] = []

beforeAll(async () => {
  backend = await startTestBackend()
  active = await serverProducts()
})
afterAll(async () => {
  await backend?.close()
})

/** The anonymous pull's live rows in pull order: the last is where a whole pull ends. */
async function serverProducts() {
  type Row = { id: string; _modified: string; _deleted: boolean }
  const rows: Row[] = []
  let after: { after_modified: string; after_id: string } | null = null
  for (;;) {
    const answer = await backend.anon.rpc('pull_products', { ...after, max_rows: 1000 })
    if (answer.error) throw new Error(answer.error.message)
    const page: Row[] = (answer.data as { rows: Row[] }).rows
    rows.push(...page)
    const last: Row | undefined = page.at(-1)
    if (!last || page.length < 1000) return rows.filter((row) => !row._deleted)
    after = { after_modified: last._modified, after_id: last.id }
  }
}

type CheckpointWrite = { checkpointData: { id: string; modified: string } }
/** What the test does with a write of the downstream checkpoint: throw, wait, or nothing. */
type Fault = (write: CheckpointWrite) => Promise<void> | void

/**
 * The tests' storage, with `fault` run before every write of a downstream checkpoint to a
 * replication's meta instance (RxDB's own or the first pull's), and those writes recorded.
 */
function faultyStorage(fault: Fault, written: CheckpointWrite[]): RxStorage<unknown, unknown> {
  const inner = testStorage() as RxStorage<unknown, unknown>
  return {
    ...inner,
    async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, unknown>) {
      const instance: RxStorageInstance<D, unknown, unknown> =
        await inner.createStorageInstance<D>(params)
      if (!params.collectionName.startsWith('rx-replication-meta-')) return instance
      return new Proxy(instance, {
        get(target, prop, receiver) {
          const value: unknown = Reflect.get(target, prop, receiver)
          if (prop !== 'bulkWrite' || typeof value !== 'function') return value
          return async (rows: { document: Record<string, unknown> }[], context: string) => {
            const doc = rows[0]?.document
            if (doc?.isCheckpoint === '1' && doc.itemId === 'down') {
              await fault(doc as unknown as CheckpointWrite)
              written.push(doc as unknown as CheckpointWrite)
            }
            return (value as (r: unknown[], c: string) => Promise<unknown>).call(
              target,
              rows,
              context,
            )
          }
        },
      })
    },
  }
}

/** The anonymous client, with the arguments of every pull_products call kept. */
function recordingClient(calls: Record<string, unknown>[]): RpcClient {
  return {
    rpc: async (fn, args) => {
      if (fn === 'pull_products') calls.push(args ?? {})
      return (await backend.anon.rpc(fn, args)) as RpcAnswer
    },
  }
}

/** A page size that leaves a short last page (`short`) or none, with at least two full pages. */
function pageSize(short: boolean): number {
  for (let size = 5; size <= active.length / 2; size++)
    if ((active.length % size !== 0) === short) return size
  throw new Error(`no page size for ${active.length} products`)
}

/** Where the next replication of this identifier starts: the checkpoint its first pull sends. */
async function resumesFrom(db: HumoDatabase, identifier: string, batchSize: number) {
  const calls: Record<string, unknown>[] = []
  const next = replicateProducts(recordingClient(calls), db, {
    identifier,
    batchSize,
    live: false,
  })
  await next.awaitInitialReplication()
  await next.cancel()
  return calls[0]?.after_id
}

describe("a first pull's checkpoint", () => {
  it('written as the bench runs it (live off), fails once: in sync at once, and stored', async () => {
    const batchSize = pageSize(true)
    const written: CheckpointWrite[] = []
    let failures = 0
    const fault: Fault = () => {
      if (failures++ === 0) throw new Error('the disk said no, once')
    }
    const db = await createHumoDatabase({
      name: `checkpoint-fails-${process.pid}`,
      storage: faultyStorage(fault, written),
      only: ['products'],
    })
    const calls: Record<string, unknown>[] = []
    const replication = replicateProducts(recordingClient(calls), db, {
      identifier: 'fails-once',
      batchSize,
      live: false,
    })
    try {
      // "In sync", or the first error RxDB reports (a failed cycle is reported before its retry
      // waits; a failed checkpoint write in RxDB's own queue ends the replication's start).
      const outcome = await Promise.race([
        replication.awaitInitialReplication().then(() => 'in sync'),
        new Promise((resolve) =>
          replication.error$.subscribe((error) => resolve(`error: ${error.message}`)),
        ),
      ])
      expect(outcome).toBe('in sync')
      expect(await db.products.count().exec()).toBe(active.length)
      // Written twice, the pull's end both times, and no page asked for again.
      expect(failures).toBe(2)
      expect(written.map((w) => w.checkpointData.id)).toEqual([active.at(-1)!.id])
      expect(calls.filter((args) => args.after_id == null)).toHaveLength(1)
      expect(await resumesFrom(db, 'fails-once', batchSize)).toBe(active.at(-1)!.id)
    } finally {
      await replication.cancel()
      await db.close()
    }
  })

  it('written as the app runs it (live), slow: in sync before it lands, then stored', async () => {
    // Pages that end exactly at the last product: no short page, an empty tail.
    const batchSize = pageSize(false)
    const written: CheckpointWrite[] = []
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let holding = false
    const fault: Fault = () => {
      holding = true
      return held
    }
    const db = await createHumoDatabase({
      name: `checkpoint-slow-${process.pid}`,
      storage: faultyStorage(fault, written),
      only: ['products'],
    })
    const replication = replicateProducts(backend.anon, db, { identifier: 'slow', batchSize })
    try {
      await replication.awaitInitialReplication()
      expect(await db.products.count().exec()).toBe(active.length)
      release()
      // The cancel waits for RxDB's checkpoint queue, which the pull's checkpoint is in.
      await replication.cancel()
      expect(holding).toBe(true)
      expect(written.map((w) => w.checkpointData.id)).toEqual([active.at(-1)!.id])
      expect(await resumesFrom(db, 'slow', batchSize)).toBe(active.at(-1)!.id)
    } finally {
      release()
      await replication.cancel()
      await db.close()
    }
  })
})
