/**
 * Pull replication from the backend into RxDB through a `pull_<table>` RPC (PostgREST), by a
 * `(_modified, id)` checkpoint. One module serves every replicated table: products, categories,
 * brands, product types, and the admin's orders.
 *
 * Why RPCs rather than table selects: row level security cannot hand a shopper a tombstone of a
 * row that was deactivated, only hide it; the RPCs return such rows as
 * `{id, _modified, _deleted: true}` so the device removes them (docs/decisions/002-pull-products-through-an-rpc.md).
 *
 * Rows committed out of order: `_modified` is stamped when a row is written, not when its
 * transaction commits, so a slow transaction can commit a row *behind* a checkpoint we already
 * passed. At the tail of every pull cycle we re-read a short window behind the checkpoint and
 * keep only the rows the device does not already hold at that version. Assuming a transaction
 * commits within OVERLAP_WINDOW_MS of stamping its rows, a row we missed was stamped after
 * `newest − window` and after `last read − window`, where the last read is the server's time
 * (`read_at`) of the read that passed it; the window starts at the later of the two. Without the
 * second bound, a catalogue written in one go was re-read whole by every pull.
 *
 * A first pull (no checkpoint) of a pull-only replication whose first page is full, into an empty
 * collection, writes its pages itself, in bulk, while the next one downloads, and ends the cycle
 * itself (./bulk-first-pull.ts, its own chunk, fetched only for a first pull, while the first page
 * downloads; docs/decisions/035-first-sync-breakdown.md, docs/decisions/046-first-sync-from-a-warm-cache.md, docs/decisions/050-first-sync-without-a-retry-wait.md).
 */
import type { RxCollection, WithDeleted } from 'rxdb'
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import type { RpcClient } from '../backend-client'

export const OVERLAP_WINDOW_MS = 30_000
export const PULL_BATCH_SIZE = 1000

/** Every row a pull RPC returns has at least these. */
export type WireRow = { id: string; _modified: string; _deleted: boolean }
export type PullCheckpoint = {
  modified: string
  id: string
  /**
   * The server's time of the earliest read since which a late commit may still be missing:
   * the first read of the device's first cycle, then the tail read of the last cycle.
   */
  readAt?: string
}
/** The device documents of replicated tables keep the server's `_modified` text verbatim. */
export type Versioned = { id: string; serverModified: string }

export type PullResult<Row> = { rows: Row[]; behind: Row[]; readAt?: string }

function lastCheckpoint(
  rows: WireRow[],
  fallback: PullCheckpoint | undefined,
): PullCheckpoint | undefined {
  const last = rows.at(-1)
  return last ? { modified: last._modified, id: last.id } : fallback && { ...fallback }
}

/** The later of two timestamptz texts (either may be missing). */
function later(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b
  return toTime(a) >= toTime(b) ? a : b
}

/** Subtracts the overlap window from a Postgres timestamptz text. */
export function windowStart(modified: string, windowMs = OVERLAP_WINDOW_MS): string {
  return new Date(toTime(modified) - windowMs).toISOString()
}

/** Milliseconds of a Postgres timestamptz text ('2026-11-22 20:00:00.000001+00') or ISO text. */
function toTime(text: string): number {
  return Date.parse(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))
}

export async function callPull<Row extends WireRow>(
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
  // Any answer that is not an object (null, a number, a text) reads as an empty page.
  const { rows, behind, read_at } = (response.data || {}) as Partial<PullResult<Row>> & {
    read_at?: string
  }
  return { rows: rows ?? [], behind: behind ?? [], ...(read_at ? { readAt: read_at } : {}) }
}

function dedupe<Row extends WireRow>(rows: Row[]): Row[] {
  const byId = new Map<string, Row>()
  for (const row of rows) {
    const seen = byId.get(row.id)
    if (!seen || seen._modified < row._modified) byId.set(row.id, row)
  }
  return [...byId.values()]
}

/**
 * The end of a cycle, from its last forward page (short) and the checkpoint after it: the tail,
 * read from there with a look behind for late commits, and the rows of the cycle that remain to
 * be written, with the checkpoint it ends at. `since` is the read before this cycle (a first
 * cycle: its first read); `unseen` keeps the rows behind that the device does not hold at that
 * version.
 */
export async function endOfCycle<Row extends WireRow>(
  supabase: RpcClient,
  rpc: string,
  forward: PullResult<Row>,
  next: PullCheckpoint,
  since: string | undefined,
  batchSize: number,
  overlapMs: number,
  unseen: (rows: Row[]) => Promise<Row[]>,
): Promise<{ rows: Row[]; end: PullCheckpoint }> {
  const behindFrom = later(
    windowStart(next.modified, overlapMs),
    since && windowStart(since, overlapMs),
  )!
  const tail = await callPull<Row>(supabase, rpc, next, batchSize, behindFrom)
  const rows = dedupe([...forward.rows, ...tail.rows, ...(await unseen(tail.behind))])
  const end = lastCheckpoint(tail.rows, next)!
  // Rows the tail passed were committed before its read; later ones are for the next cycle.
  if (tail.readAt) end.readAt = tail.readAt
  else delete end.readAt
  return { rows, end }
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
  /** Given by pull-only replications (replicateByRpc): their first pull may go in bulk. */
  bulk?: () => RxReplicationState<Doc, PullCheckpoint>,
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
    // A first pull: ./bulk-first-pull.ts is fetched, and looks whether the collection is empty,
    // while the first page downloads; it takes the cycle on if the page is full and nothing is
    // held.
    const first =
      !checkpoint &&
      bulk &&
      import('./bulk-first-pull').then((m) =>
        m.firstPull(bulk(), supabase, rpc, batchSize, toDoc, overlapMs),
      )
    const forward = await callPull<Row>(supabase, rpc, checkpoint, batchSize, null)
    const done = first && (await (await first)(forward))
    if (done) return done
    const next = lastCheckpoint(forward.rows, checkpoint)
    // Late commits are looked for from the read before this cycle (a first cycle: this read).
    const since = checkpoint ? checkpoint.readAt : forward.readAt
    if (forward.rows.length < batchSize && next) {
      // The tail of the cycle: look behind the checkpoint for late commits.
      const { rows, end } = await endOfCycle(
        supabase,
        rpc,
        forward,
        next,
        since,
        batchSize,
        overlapMs,
        unseen,
      )
      return { documents: rows.map(toDoc), checkpoint: end }
    }
    // A full batch (its checkpoint made from a row, without `readAt`): more follow in this
    // cycle, still looked for from the same read.
    if (next && since) next.readAt = since
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
  const state: RxReplicationState<Doc, PullCheckpoint> = replicateRxCollection({
    collection: pull.collection,
    replicationIdentifier: options.identifier,
    // RxDB's defaults otherwise: live, started at once, a failed pull retried after 5 s.
    live: options.live,
    waitForLeadership: options.waitForLeadership ?? false,
    pull: {
      batchSize: options.batchSize ?? PULL_BATCH_SIZE,
      handler: createRpcPullHandler(supabase, pull, () => state),
      stream$: resync$.asObservable(),
    },
  })
  return Object.assign(state, { nudge: () => resync$.next('RESYNC') })
}
