/**
 * Pull replication from the backend into RxDB through a `pull_<table>` RPC (PostgREST), by a
 * `(_modified, id)` checkpoint. One module serves every replicated table: products, categories,
 * brands, product types, and the admin's orders.
 *
 * Why RPCs rather than table selects: row level security cannot hand a shopper a tombstone of a
 * row that was deactivated, only hide it; the RPCs return such rows as
 * `{id, _modified, _deleted: true}` so the device removes them (docs/decisions/002).
 *
 * Rows committed out of order: `_modified` is stamped when a row is written, not when its
 * transaction commits, so a slow transaction can commit a row *behind* a checkpoint we already
 * passed. At the tail of every pull cycle we re-read a short window behind the checkpoint and
 * keep only the rows the device does not already hold at that version.
 */
import type { RxCollection, WithDeleted } from 'rxdb'
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import type { RpcClient } from '../backend-client'

export const OVERLAP_WINDOW_MS = 30_000
export const PULL_BATCH_SIZE = 1000

/** Every row a pull RPC returns has at least these. */
export type WireRow = { id: string; _modified: string; _deleted: boolean }
export type PullCheckpoint = { modified: string; id: string }
/** The device documents of replicated tables keep the server's `_modified` text verbatim. */
export type Versioned = { id: string; serverModified: string }

type PullResult<Row> = { rows: Row[]; behind: Row[] }

function lastCheckpoint(rows: WireRow[], fallback: PullCheckpoint | undefined) {
  const last = rows.at(-1)
  return last ? { modified: last._modified, id: last.id } : fallback
}

/** Subtracts the overlap window from a Postgres timestamptz text. */
export function windowStart(modified: string, windowMs = OVERLAP_WINDOW_MS): string {
  const parsed = Date.parse(modified.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))
  return new Date(parsed - windowMs).toISOString()
}

async function callPull<Row extends WireRow>(
  supabase: RpcClient,
  rpc: string,
  checkpoint: PullCheckpoint | undefined,
  maxRows: number,
  behindFrom: string | null,
): Promise<PullResult<Row>> {
  const response = await supabase.rpc(rpc, {
    after_modified: checkpoint?.modified ?? null,
    after_id: checkpoint?.id ?? null,
    max_rows: maxRows,
    behind_from: behindFrom,
  })
  if (response.error) throw new Error(`${rpc} failed: ${response.error.message}`)
  const result: unknown = response.data
  if (!result || typeof result !== 'object') return { rows: [], behind: [] }
  const { rows, behind } = result as Partial<PullResult<Row>>
  return { rows: rows ?? [], behind: behind ?? [] }
}

function dedupe<Row extends WireRow>(rows: Row[]): Row[] {
  const byId = new Map<string, Row>()
  for (const row of rows) {
    const seen = byId.get(row.id)
    if (!seen || seen._modified < row._modified) byId.set(row.id, row)
  }
  return [...byId.values()]
}

export type PullHandler<Doc> = (
  checkpoint: PullCheckpoint | undefined,
  batchSize: number,
) => Promise<{ documents: WithDeleted<Doc>[]; checkpoint: PullCheckpoint | undefined }>

export type RpcPullOptions<Doc extends Versioned, Row extends WireRow> = {
  rpc: string
  collection: RxCollection<Doc>
  toDoc: (row: Row) => WithDeleted<Doc>
  overlapMs?: number
}

export function createRpcPullHandler<Doc extends Versioned, Row extends WireRow>(
  supabase: RpcClient,
  { rpc, collection, toDoc, overlapMs = OVERLAP_WINDOW_MS }: RpcPullOptions<Doc, Row>,
): PullHandler<Doc> {
  /** Keeps the rows behind the checkpoint that the device does not hold at that version. */
  const unseen = async (rows: Row[]) => {
    if (rows.length === 0) return []
    const local = await collection.findByIds(rows.map((r) => r.id)).exec()
    return rows.filter((row) => {
      const doc = local.get(row.id)
      if (row._deleted) return doc !== undefined
      return doc?.serverModified !== row._modified
    })
  }

  return async (checkpoint, batchSize) => {
    const forward = await callPull<Row>(supabase, rpc, checkpoint, batchSize, null)
    const next = lastCheckpoint(forward.rows, checkpoint)
    if (forward.rows.length < batchSize && next) {
      // The tail of the cycle: look behind the checkpoint for late commits.
      const tail = await callPull<Row>(
        supabase,
        rpc,
        next,
        batchSize,
        windowStart(next.modified, overlapMs),
      )
      const rows = dedupe([...forward.rows, ...tail.rows, ...(await unseen(tail.behind))])
      return { documents: rows.map(toDoc), checkpoint: lastCheckpoint(tail.rows, next) }
    }
    return { documents: forward.rows.map(toDoc), checkpoint: next }
  }
}

export type PullReplication<Doc> = RxReplicationState<Doc, PullCheckpoint> & {
  /** Ask for a pull now (a live change, the connection coming back). */
  nudge(): void
}

export type ReplicatePullOptions = {
  live?: boolean
  identifier: string
  /** Only the leader tab replicates; tests run without leader election. */
  waitForLeadership?: boolean
  batchSize?: number
}

export function replicateByRpc<Doc extends Versioned, Row extends WireRow>(
  supabase: RpcClient,
  pull: RpcPullOptions<Doc, Row>,
  options: ReplicatePullOptions,
): PullReplication<Doc> {
  const resync$ = new Subject<'RESYNC'>()
  const state = replicateRxCollection<Doc, PullCheckpoint>({
    collection: pull.collection,
    replicationIdentifier: options.identifier,
    live: options.live ?? true,
    retryTime: 5_000,
    waitForLeadership: options.waitForLeadership ?? false,
    autoStart: true,
    pull: {
      batchSize: options.batchSize ?? PULL_BATCH_SIZE,
      handler: createRpcPullHandler(supabase, pull),
      stream$: resync$.asObservable(),
    },
  })
  return Object.assign(state, { nudge: () => resync$.next('RESYNC') })
}
