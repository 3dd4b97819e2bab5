/**
 * Pull replication of the catalogue's products from the backend into RxDB, through supabase-js
 * and the `pull_products` RPC, by a `(_modified, id)` checkpoint.
 *
 * Why an RPC rather than a table select: row level security cannot hand an anonymous shopper a
 * tombstone of a product that was deactivated, only hide it; the RPC returns such rows as
 * `{id, _modified, _deleted: true}` so the device removes them (docs/decisions/002).
 *
 * Rows committed out of order: `_modified` is stamped when a row is written, not when its
 * transaction commits, so a slow transaction can commit a row *behind* a checkpoint we already
 * passed. At the tail of every pull cycle we re-read a short window behind the checkpoint and
 * keep only the rows the device does not already hold at that version.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import type { RxCollection, WithDeleted } from 'rxdb'
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import type { ProductDoc } from '../schemas/product.schema'
import { productRowToDoc, type ProductCheckpoint, type ProductRow } from './product-row'

export const OVERLAP_WINDOW_MS = 30_000
export const PULL_BATCH_SIZE = 500

type PullResult = { rows: ProductRow[]; behind: ProductRow[] }

function lastCheckpoint(rows: ProductRow[], fallback: ProductCheckpoint | undefined) {
  const last = rows.at(-1)
  return last ? { modified: last._modified, id: last.id } : fallback
}

/** Subtracts the overlap window from a Postgres timestamptz text. */
export function windowStart(modified: string, windowMs = OVERLAP_WINDOW_MS): string {
  const parsed = Date.parse(modified.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))
  return new Date(parsed - windowMs).toISOString()
}

async function callPull(
  supabase: SupabaseClient,
  checkpoint: ProductCheckpoint | undefined,
  maxRows: number,
  behindFrom: string | null,
): Promise<PullResult> {
  const response = await supabase.rpc('pull_products', {
    after_modified: checkpoint?.modified ?? null,
    after_id: checkpoint?.id ?? null,
    max_rows: maxRows,
    behind_from: behindFrom,
  })
  if (response.error) throw new Error(`pull_products failed: ${response.error.message}`)
  const result: unknown = response.data
  if (!result || typeof result !== 'object') return { rows: [], behind: [] }
  const { rows, behind } = result as Partial<PullResult>
  return { rows: rows ?? [], behind: behind ?? [] }
}

/** Keeps the rows behind the checkpoint that the device does not hold at that version. */
async function unseen(collection: RxCollection<ProductDoc>, rows: ProductRow[]) {
  if (rows.length === 0) return []
  const local = await collection.findByIds(rows.map((r) => r.id)).exec()
  return rows.filter((row) => {
    const doc = local.get(row.id)
    if (row._deleted) return doc !== undefined
    return doc?.serverModified !== row._modified
  })
}

export type ProductPullHandler = (
  checkpoint: ProductCheckpoint | undefined,
  batchSize: number,
) => Promise<{ documents: WithDeleted<ProductDoc>[]; checkpoint: ProductCheckpoint | undefined }>

export function createProductPullHandler(
  supabase: SupabaseClient,
  collection: RxCollection<ProductDoc>,
  overlapMs = OVERLAP_WINDOW_MS,
): ProductPullHandler {
  return async (checkpoint, batchSize) => {
    const forward = await callPull(supabase, checkpoint, batchSize, null)
    let rows = forward.rows
    const next = lastCheckpoint(rows, checkpoint)
    if (rows.length < batchSize && next) {
      // The tail of the cycle: look behind the checkpoint for late commits.
      const tail = await callPull(supabase, next, batchSize, windowStart(next.modified, overlapMs))
      rows = [...rows, ...tail.rows, ...(await unseen(collection, tail.behind))]
      const further = lastCheckpoint(tail.rows, next)
      return { documents: dedupe(rows).map(productRowToDoc), checkpoint: further }
    }
    return { documents: rows.map(productRowToDoc), checkpoint: next }
  }
}

function dedupe(rows: ProductRow[]): ProductRow[] {
  const byId = new Map<string, ProductRow>()
  for (const row of rows) {
    const seen = byId.get(row.id)
    if (!seen || seen._modified < row._modified) byId.set(row.id, row)
  }
  return [...byId.values()]
}

export type ProductReplication = RxReplicationState<ProductDoc, ProductCheckpoint> & {
  /** Ask for a pull now (a live change, the connection coming back). */
  nudge(): void
}

export function replicateProducts(
  supabase: SupabaseClient,
  collection: RxCollection<ProductDoc>,
  options: { live?: boolean; identifier?: string } = {},
): ProductReplication {
  const resync$ = new Subject<'RESYNC'>()
  const state = replicateRxCollection<ProductDoc, ProductCheckpoint>({
    collection,
    replicationIdentifier: options.identifier ?? 'humo-products-v1',
    live: options.live ?? true,
    retryTime: 5_000,
    waitForLeadership: false,
    autoStart: true,
    pull: {
      batchSize: PULL_BATCH_SIZE,
      handler: createProductPullHandler(supabase, collection),
      stream$: resync$.asObservable(),
    },
  })
  return Object.assign(state, { nudge: () => resync$.next('RESYNC') })
}
