/**
 * A first pull into an empty collection, written outside RxDB's replication protocol (decisions
 * 035, 046, 050). The protocol reads the device's copy and its meta data of every pulled document
 * to settle conflicts, which an empty collection cannot have, and that cost more than the writes.
 * Its own chunk, fetched by rpc-pull.ts only for a first pull (no checkpoint stored), while the
 * first page downloads, so a device that holds a catalogue never loads it; the checks that the
 * collection is empty and the first page full are made here, to keep the boot code small (240 KB
 * ceiling).
 *
 * Only for pull-only replications: RxDB stores no meta data for them (`skipStoringPullMeta`),
 * so a document written here is later overwritten by the protocol like any other. With a push
 * (the admin's orders, docs/decisions/004-order-status-conflicts.md) the protocol would take such a document for a local change
 * and ignore the server's versions of it.
 *
 * On RxDB's Dexie storage (the app's) a page goes straight into Dexie's table (docs/decisions/046-first-sync-from-a-warm-cache.md):
 * the storage's own bulkWrite reads every document first (a thousand IndexedDB gets a page, on
 * a table that cannot hold them) and deep-copies each one, which cost about as much as the
 * writes. Each page is added as soon as it arrives, so its documents are copied into IndexedDB
 * while the page before commits and the next downloads; the storage's change events follow in
 * page order, as the storage would send them, for the screens and the other tabs.
 *
 * The cycle ends here too (docs/decisions/050-first-sync-without-a-retry-wait.md): the tail is read while the last pages are still being
 * written, its look-behind rows are checked against what the pages wrote (not read back from
 * IndexedDB), what remains is written the storage's way, and the checkpoint is stored in the
 * background, never failing RxDB's checkpoint queue: the app's (live) "in sync" waits for no
 * checkpoint write, and a slow or failed one sends nothing to RxDB's retry timer.
 */
import {
  createRevision,
  getComposedPrimaryKeyOfDocumentData,
  now,
  type RxDocumentData,
  type WithDeleted,
} from 'rxdb'
import type { RxReplicationState } from 'rxdb/plugins/replication'
import { fromStorageToDexie } from 'rxdb/plugins/storage-dexie'
import type { RpcClient } from '../backend-client'
import {
  callPull,
  endOfCycle,
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
 * Writes documents as the protocol's downstream does, with its flag, through the storage's
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

/**
 * A write that failed is tried again at once, once: a failed write failed the cycle, which RxDB
 * retries 5 s later (retryTime) with the whole protocol, and a write that fails twice will not
 * be helped by waiting either.
 */
function writeAgainOnce<Doc extends Versioned>(state: State<Doc>, docs: WithDeleted<Doc>[]) {
  return writeAsPulled(state, docs).catch(() => writeAsPulled(state, docs))
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
type DirectWriter<Doc> = (docs: WithDeleted<Doc>[]) => DirectPage

let directBulks = 0

/**
 * A document as RxDB's Dexie storage stores it. `fromStorageToDexie` deep-copies every document
 * to rename keys starting with '|' (key compression's), which no schema of ours has: a shallow
 * copy with the indexed booleans as '1'/'0' is the same row, and spared ~9 ms of the main thread
 * a page of 1,000 products. Any other schema: the storage's own conversion.
 */
function dexieRows<Doc>(
  schema: object,
  booleanIndexes: string[],
): (document: RxDocumentData<Doc>) => object {
  if (JSON.stringify(schema).includes('"|') || booleanIndexes.some((path) => path.includes('.')))
    return (document) => fromStorageToDexie(booleanIndexes, document) as object
  return (document) => {
    const row: Record<string, unknown> = { ...document }
    for (const path of booleanIndexes) row[path] = row[path] ? '1' : '0'
    return row
  }
}

/**
 * Adds pages straight into Dexie's table of the collection, if its storage is RxDB's Dexie
 * storage (through any wrappers, e.g. the tests' validation) and the table holds nothing, not
 * even a tombstone; null if the table holds something, undefined for another storage (the
 * storage's bulkWrite then). The documents are stored as the Dexie storage stores them (boolean
 * indexes as '1'/'0'); a compressed key or attachments: not taken. `add`, not `put`: a document
 * that is there after all (written meanwhile by anyone but this pull) fails the page's
 * transaction, which writes nothing, and the page goes the storage's way.
 */
async function directWriter<Doc extends Versioned>(
  state: State<Doc>,
): Promise<DirectWriter<Doc> | null | undefined> {
  const collection = state.collection
  const schema = collection.schema.jsonSchema
  // The events and checkpoints below name documents by `id`, as the pulls do.
  if (schema.keyCompression || schema.attachments || collection.schema.primaryPath !== 'id')
    return undefined
  let layer = collection.storageInstance as unknown as StorageLayer
  while (layer.originalStorageInstance && !layer.changes$) layer = layer.originalStorageInstance
  const changes = layer.changes$
  const internals = await layer.internals
  if (typeof changes?.next !== 'function' || !internals?.dexieTable || !internals.dexieDb)
    return undefined
  const { dexieDb, dexieTable, booleanIndexes = [] } = internals as DexieInternals
  if ((await dexieTable.count()) > 0) return null
  const context = await downstreamContext(state)
  const toRow = dexieRows<Doc>(schema, booleanIndexes)
  const rev = `1-${collection.database.token}`
  return (docs) => {
    const lwt = Date.now()
    // The page's documents are this pull's own (made from its rows): completed in place rather
    // than copied, one object fewer per document for the main thread and its garbage collector.
    const documents = docs.map(
      (doc) =>
        Object.assign(doc, { _meta: { lwt }, _rev: rev, _attachments: {} }) as RxDocumentData<Doc>,
    )
    const rows = documents.map(toRow)
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
 * How pages are written, decided while the first page downloads: straight into Dexie's table,
 * the storage's way, or not at all (the collection holds documents: the protocol's way).
 */
async function writer<Doc extends Versioned>(
  state: State<Doc>,
): Promise<DirectWriter<Doc> | undefined | false> {
  const direct = await directWriter(state)
  if (direct !== undefined) return direct ?? false
  return (await state.collection.count().exec()) === 0 && undefined
}

/**
 * Stores where the cycle ended as RxDB stores a checkpoint (the same document in the
 * replication's meta instance), in RxDB's checkpoint queue, so that the next cycle reads it and
 * the replication's end waits for it, but without the handler waiting for it. A failed write is
 * tried again at once, once, and never rejects the queue: a write that fails in RxDB's own
 * setCheckpoint leaves the queue rejected, and every later cycle (and a non-live replication's
 * "in sync") with it. Lost, a checkpoint only makes the next cycle read the catalogue again,
 * through the protocol, which puts every document at the server's version.
 */
function storeCheckpoint<Doc>(state: State<Doc>, checkpoint: PullCheckpoint) {
  const internal = state.internalReplicationState!
  const meta = internal.input.metaInstance
  const write = async () => {
    const document = {
      id: '',
      isCheckpoint: '1' as const,
      itemId: 'down',
      checkpointData: checkpoint,
      _deleted: false,
      _attachments: {},
      _meta: { lwt: now() },
      _rev: createRevision(await internal.checkpointKey),
    }
    document.id = getComposedPrimaryKeyOfDocumentData(meta.schema, document)
    // A first pull starts with no checkpoint stored: one found there (409) is as good as ours.
    const { error } = await meta.bulkWrite([{ document }], 'replication-set-checkpoint')
    if (error.some((failure) => failure.status !== 409)) throw new Error('checkpoint not stored')
  }
  internal.checkpointQueue = internal.checkpointQueue
    .then(() => write().catch(write))
    .catch(() => undefined)
}

/**
 * Starts a first pull's checks (is the collection empty, is its storage Dexie's) at once, while
 * the first page downloads, and answers the function that takes the cycle on from that page:
 * each full page is written in one bulk write while the next is fetched, tombstones too (the
 * protocol writes them as well; they also remove a document an earlier page brought). At the
 * first short page the tail is asked for while the last pages are still being written; the
 * rows left (the short page, the tail, late commits the pages did not bring) are written the
 * storage's way, the checkpoint stored in the background, and the cycle handed back to RxDB with
 * nothing left to write. Undefined for a catalogue that fits in one page or a collection that
 * holds documents (a replication of a new identifier, a checkpoint lost): the protocol, as before.
 *
 * A failure (a page, or a write that failed twice) fails the cycle with no checkpoint stored;
 * the written pages stay, so RxDB's retry finds a collection that is not empty and takes the
 * protocol from the start, which puts every document at the server's version.
 */
export function firstPull<Doc extends Versioned, Row extends WireRow>(
  state: State<Doc>,
  supabase: RpcClient,
  rpc: string,
  batchSize: number,
  toDoc: (row: Row) => WithDeleted<Doc>,
  overlapMs: number,
) {
  const ready = writer(state)
  // Nothing may reject unheard while the first page downloads; a failed check fails the cycle.
  ready.catch(() => undefined)
  return async (first: PullResult<Row>) => {
    if (first.rows.length < batchSize) return undefined
    const direct = await ready
    if (direct === false) return undefined
    // What the pages wrote, by id: the server's `_modified`, null for a tombstone.
    const held = new Map<string, string | null>()
    const readAt = first.readAt
    let checkpoint: PullCheckpoint | undefined
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
        const again = docs.some((doc) => held.has(doc.id))
        for (const doc of docs) held.set(doc.id, doc._deleted ? null : doc.serverModified)
        const page = direct && !again ? direct(docs) : null
        writes = writes.then(async () => {
          if (page && (await page.added)) page.emit()
          else await writeAgainOnce(state, docs)
        })
        // Seen when awaited below; no further page is fetched once a write failed.
        writes.catch(() => (failed = true))
        forward = await next
      }
      // A write that failed twice fails the cycle (thrown here).
      if (failed) await writes
      const short = forward.rows.at(-1)
      const next = short ? { modified: short._modified, id: short.id } : { ...checkpoint! }
      // The tail is read while the last pages are written; what they wrote is known here.
      const { rows, end } = await endOfCycle<Row>(
        supabase,
        rpc,
        forward,
        next,
        readAt,
        batchSize,
        overlapMs,
        (behind) =>
          Promise.resolve(
            behind.filter((row) => {
              const version = held.get(row.id)
              return row._deleted ? typeof version === 'string' : version !== row._modified
            }),
          ),
      )
      await writes
      if (rows.length > 0) await writeAgainOnce(state, rows.map(toDoc))
      storeCheckpoint(state, end)
      return { documents: [] as WithDeleted<Doc>[], checkpoint: end }
    } finally {
      await writes
    }
  }
}
