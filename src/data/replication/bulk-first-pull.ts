/**
 * A first pull into an empty collection, its full pages written outside RxDB's replication
 * protocol (decision 035). The protocol reads the device's copy and its meta data of every
 * pulled document to settle conflicts, which an empty collection cannot have, and that cost more
 * than the writes. Its own chunk, fetched by rpc-pull.ts only for a first pull (no checkpoint
 * stored), so a device that holds a catalogue never loads it; the checks that the collection is
 * empty and the first page full are made here, to keep the boot code small (240 KB ceiling).
 *
 * Only for pull-only replications: RxDB stores no meta data for them (`skipStoringPullMeta`),
 * so a document written here is later overwritten by the protocol like any other. With a push
 * (the admin's orders, decision 004) the protocol would take such a document for a local change
 * and ignore the server's versions of it.
 */
import type { RxDocumentData, WithDeleted } from 'rxdb'
import type { RxReplicationState } from 'rxdb/plugins/replication'
import type { RpcClient } from '../backend-client'
import {
  callPull,
  type PullCheckpoint,
  type PullResult,
  type Versioned,
  type WireRow,
} from './rpc-pull'

/**
 * Writes a page as the protocol's downstream does, with its flag, so that its upstream does not
 * take the documents for local changes. A document already there (met on an earlier page and
 * saved again during the pull, so met again later) is replaced by this newer version, a
 * tombstone included: a product deactivated during the pull must not stay on the device.
 */
async function writeAsPulled<Doc extends Versioned>(
  state: RxReplicationState<Doc, PullCheckpoint>,
  docs: WithDeleted<Doc>[],
): Promise<void> {
  const internal = state.internalReplicationState
  if (!internal) throw new Error('the replication has not started')
  const context = await internal.downstreamBulkWriteFlag
  const storage = state.collection.storageInstance
  const token = state.collection.database.token
  const lwt = Date.now()
  const row = (doc: WithDeleted<Doc>, previous?: RxDocumentData<Doc>) => ({
    ...(previous ? { previous } : {}),
    document: {
      ...doc,
      _meta: { lwt },
      _rev: `${previous ? Number.parseInt(previous._rev, 10) + 1 : 1}-${token}`,
      _attachments: {},
    } as RxDocumentData<Doc>,
  })
  const written = await storage.bulkWrite(
    docs.map((doc) => row(doc)),
    context,
  )
  if (written.error.length === 0) return
  const held = await storage.findDocumentsById(
    written.error.map((error) => error.documentId),
    true,
  )
  const newer = new Map(docs.map((doc) => [doc.id, doc]))
  const replaced = await storage.bulkWrite(
    held.map((previous) => row(newer.get(previous.id)!, previous)),
    context,
  )
  if (replaced.error.length > 0) throw new Error('a pulled document could not be written')
}

/**
 * Goes on from the first page (full, already read) to the end: each full page is written in one
 * bulk write while the next is fetched, tombstones too (the protocol writes them as well; they
 * also remove a document an earlier page brought). Ends at the first short page, not written,
 * with the checkpoint of the last full one carrying the first read's time, as every full batch
 * of a cycle does: the handler ends the cycle from there as any cycle ends, the protocol writing
 * the short page and the tail and storing the checkpoint.
 *
 * A failure (a page or a write) fails the cycle with no checkpoint stored; the written pages
 * stay, so RxDB's retry finds a collection that is not empty and takes the protocol from the
 * start, which puts every document at the server's version.
 */
export async function fullPagesInBulk<Doc extends Versioned, Row extends WireRow>(
  first: PullResult<Row>,
  supabase: RpcClient,
  rpc: string,
  batchSize: number,
  toDoc: (row: Row) => WithDeleted<Doc>,
  state: RxReplicationState<Doc, PullCheckpoint>,
): Promise<{ checkpoint: PullCheckpoint | undefined; forward: PullResult<Row> }> {
  let checkpoint: PullCheckpoint | undefined
  // A catalogue that fits in one page, or a collection that holds documents (a replication of
  // a new identifier, a checkpoint lost): the protocol, page after page, as before.
  if (first.rows.length < batchSize || (await state.collection.count().exec()) > 0)
    return { checkpoint, forward: first }
  const readAt = first.readAt
  let forward = first
  let writes = Promise.resolve()
  let failed = false
  try {
    while (forward.rows.length === batchSize && !failed) {
      const docs = forward.rows.map(toDoc)
      writes = writes.then(() => writeAsPulled(state, docs))
      // Seen when awaited below; no further page is fetched once a write failed.
      writes.catch(() => (failed = true))
      const last = forward.rows.at(-1)!
      checkpoint = { modified: last._modified, id: last.id, ...(readAt ? { readAt } : {}) }
      forward = await callPull<Row>(supabase, rpc, checkpoint, batchSize, null)
    }
    return { checkpoint, forward }
  } finally {
    await writes
  }
}
