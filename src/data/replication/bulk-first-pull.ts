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
 *
 * On RxDB's Dexie storage (the app's) a page goes straight into Dexie's table (decision 046):
 * the storage's own bulkWrite reads every document first (a thousand IndexedDB gets a page, on
 * a table that cannot hold them) and deep-copies each one, which cost about as much as the
 * writes. Each page is added as soon as it arrives, so its documents are copied into IndexedDB
 * while the page before commits and the next downloads; the storage's change events follow in
 * page order, as the storage would send them, for the screens and the other tabs.
 */
import type { RxDocumentData, WithDeleted } from 'rxdb'
import type { RxReplicationState } from 'rxdb/plugins/replication'
import { fromStorageToDexie } from 'rxdb/plugins/storage-dexie'
import type { RpcClient } from '../backend-client'
import {
  callPull,
  type PullCheckpoint,
  type PullResult,
  type Versioned,
  type WireRow,
} from './rpc-pull'

type State<Doc> = RxReplicationState<Doc, PullCheckpoint>

/** The protocol's flag for its downstream writes, so that its upstream skips them. */
async function downstreamContext<Doc>(state: State<Doc>): Promise<string> {
  const internal = state.internalReplicationState
  if (!internal) throw new Error('the replication has not started')
  return internal.downstreamBulkWriteFlag
}

/** A pulled document as the storage keeps it, first version or the next one after `previous`. */
function stored<Doc extends Versioned>(
  state: State<Doc>,
  doc: WithDeleted<Doc>,
  lwt: number,
  previous?: RxDocumentData<Doc>,
): RxDocumentData<Doc> {
  const token = state.collection.database.token
  return {
    ...doc,
    _meta: { lwt },
    _rev: `${previous ? Number.parseInt(previous._rev, 10) + 1 : 1}-${token}`,
    _attachments: {},
  }
}

/**
 * Writes a page as the protocol's downstream does, with its flag, through the storage's
 * bulkWrite. A document already there (met on an earlier page and saved again during the pull,
 * so met again later) is replaced by this newer version, a tombstone included: a product
 * deactivated during the pull must not stay on the device.
 */
async function writeAsPulled<Doc extends Versioned>(
  state: State<Doc>,
  docs: WithDeleted<Doc>[],
): Promise<void> {
  const context = await downstreamContext(state)
  const storage = state.collection.storageInstance
  const lwt = Date.now()
  const written = await storage.bulkWrite(
    docs.map((doc) => ({ document: stored(state, doc, lwt) })),
    context,
  )
  if (written.error.length === 0) return
  const held = await storage.findDocumentsById(
    written.error.map((error) => error.documentId),
    true,
  )
  const newer = new Map(docs.map((doc) => [doc.id, doc]))
  const replaced = await storage.bulkWrite(
    held.map((previous) => ({
      previous,
      document: stored(state, newer.get(previous.id)!, lwt, previous),
    })),
    context,
  )
  if (replaced.error.length > 0) throw new Error('a pulled document could not be written')
}

/** What RxDB's Dexie storage keeps of an instance (rxdb/plugins/storage-dexie), as used here. */
type DexieTable = { bulkAdd(items: object[]): Promise<unknown>; count(): Promise<number> }
type DexieInternals = {
  dexieDb: {
    transaction(mode: 'rw', table: DexieTable, scope: () => Promise<unknown>): Promise<unknown>
  }
  dexieTable: DexieTable
  booleanIndexes: string[]
}
type StorageLayer = {
  originalStorageInstance?: StorageLayer
  internals?: Promise<Partial<DexieInternals>>
  changes$?: { next(bulk: object): void }
}

/** A page being added to Dexie's table: `added` says whether it was; `emit` then tells RxDB. */
type DirectPage = { added: Promise<boolean>; emit(): void }

let directBulks = 0

/**
 * Adds pages straight into Dexie's table of the collection, if its storage is RxDB's Dexie
 * storage (through any wrappers, e.g. the tests' validation) and the table holds nothing, not
 * even a tombstone; null otherwise (the storage's bulkWrite then). The documents are stored as
 * the Dexie storage stores them, converted by the storage's own `fromStorageToDexie` (boolean
 * indexes as '1'/'0', keys Dexie cannot hold renamed); a compressed key or attachments: not taken.
 * `add`, not `put`: a document that is there after all (written meanwhile by anyone but this
 * pull) fails the page's transaction, which writes nothing, and the page goes the storage's way.
 */
async function directWriter<Doc extends Versioned>(
  state: State<Doc>,
): Promise<((docs: WithDeleted<Doc>[]) => DirectPage) | null> {
  const collection = state.collection
  const schema = collection.schema.jsonSchema
  // The events and checkpoints below name documents by `id`, as the pulls do.
  if (schema.keyCompression || schema.attachments || collection.schema.primaryPath !== 'id')
    return null
  let layer = collection.storageInstance as unknown as StorageLayer
  while (layer.originalStorageInstance && !layer.changes$) layer = layer.originalStorageInstance
  const changes = layer.changes$
  const internals = await layer.internals
  if (typeof changes?.next !== 'function' || !internals?.dexieTable || !internals.dexieDb)
    return null
  const { dexieDb, dexieTable, booleanIndexes = [] } = internals as DexieInternals
  if ((await dexieTable.count()) > 0) return null
  const context = await downstreamContext(state)
  return (docs) => {
    const lwt = Date.now()
    const documents = docs.map((doc) => stored(state, doc, lwt))
    const rows = documents.map((document) => fromStorageToDexie(booleanIndexes, document) as object)
    const added = collection.database
      .lockedRun(() => dexieDb.transaction('rw', dexieTable, () => dexieTable.bulkAdd(rows)))
      .then(
        () => true,
        () => false,
      )
    const emit = () => {
      // As the storage's bulkWrite reports inserts: a tombstone of a document not held, none.
      const events = documents
        .filter((document) => !document._deleted)
        .map((document) => ({
          documentId: document.id,
          operation: 'INSERT',
          documentData: document,
          previousDocumentData: undefined,
        }))
      const last = documents.at(-1)!
      if (events.length > 0)
        changes.next({
          id: `${collection.database.token}-first-pull-${++directBulks}`,
          events,
          checkpoint: { id: last.id, lwt: last._meta.lwt },
          context,
        })
    }
    return { added, emit }
  }
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
  state: State<Doc>,
): Promise<{ checkpoint: PullCheckpoint | undefined; forward: PullResult<Row> }> {
  let checkpoint: PullCheckpoint | undefined
  // A catalogue that fits in one page, or a collection that holds documents (a replication of
  // a new identifier, a checkpoint lost): the protocol, page after page, as before.
  if (first.rows.length < batchSize || (await state.collection.count().exec()) > 0)
    return { checkpoint, forward: first }
  const direct = await directWriter(state)
  const readAt = first.readAt
  const seen = new Set<string>()
  let forward = first
  let writes = Promise.resolve()
  let failed = false
  try {
    while (forward.rows.length === batchSize && !failed) {
      const last = forward.rows.at(-1)!
      checkpoint = { modified: last._modified, id: last.id, ...(readAt ? { readAt } : {}) }
      // The next page is asked for before this one is written.
      const next = callPull<Row>(supabase, rpc, checkpoint, batchSize, null)
      const docs = forward.rows.map(toDoc)
      // A document met again (saved during the pull) replaces the one held: the storage's way,
      // after the pages before it. Any other page is added at once.
      const again = docs.some((doc) => seen.has(doc.id))
      for (const doc of docs) seen.add(doc.id)
      const page = direct && !again ? direct(docs) : null
      writes = writes.then(async () => {
        if (page && (await page.added)) page.emit()
        else await writeAsPulled(state, docs)
      })
      // Seen when awaited below; no further page is fetched once a write failed.
      writes.catch(() => (failed = true))
      forward = await next
    }
    return { checkpoint, forward }
  } finally {
    await writes
  }
}
