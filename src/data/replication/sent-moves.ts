/**
 * Sends an admin status move once per device. Two admin tabs share the database (RxDB's
 * multi-instance mode) and each runs the admin-orders replication, so each sees the same local
 * move and would push it: a second set_order_status that the server then refuses as stale. The
 * tabs take turns (a Web Lock) and the one whose move the server applied notes it for the
 * others, which skip it.
 *
 * The note lives in a small IndexedDB store, not in localStorage: Chromium hands a localStorage
 * write to other tabs asynchronously, so a tab taking the lock right after the sender could still
 * read the old value and send the move again (two-tabs.spec.ts caught it on a loaded machine). An
 * IndexedDB transaction that completed inside the lock is seen by every later one, in any tab.
 * Where neither exists (Node tests) every move is sent, as before.
 */

const LOCK = 'humo.admin-moves-sent'
const DB_NAME = 'humo-sent-moves'
const STORE = 'moves'
/** Long enough to outlast any push retry of the same move; the store never grows past that. */
const KEPT_MS = 10 * 60_000

function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'))
  })
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })
}

function openNotes(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1)
  request.onupgradeneeded = () => request.result.createObjectStore(STORE)
  return settled(request)
}

async function wasSent(db: IDBDatabase, key: string): Promise<boolean> {
  const tx = db.transaction(STORE, 'readonly')
  const at: unknown = await settled(tx.objectStore(STORE).get(key))
  return typeof at === 'number'
}

async function noteSent(db: IDBDatabase, key: string): Promise<void> {
  const tx = db.transaction(STORE, 'readwrite')
  const store = tx.objectStore(STORE)
  const now = Date.now()
  store.put(now, key)
  const cursor = store.openCursor()
  cursor.onsuccess = () => {
    const at = cursor.result
    if (!at) return
    if (typeof at.value !== 'number' || now - at.value > KEPT_MS) at.delete()
    at.continue()
  }
  await committed(tx)
}

/**
 * Runs `send` unless another tab of this device already sent the move `key` and the server
 * applied it (then null). `applied` tells whether an answer counts as applied.
 */
export async function oncePerDevice<T>(
  key: string,
  send: () => Promise<T>,
  applied: (answer: T) => boolean,
): Promise<T | null> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks
  if (!locks || typeof indexedDB === 'undefined') return send()
  return locks.request(LOCK, async () => {
    let db: IDBDatabase | null = null
    try {
      db = await openNotes()
    } catch {
      // No notes (storage refused): each tab sends, the server refuses the stale second move.
      return send()
    }
    try {
      if (await wasSent(db, key)) return null
      const answer = await send()
      if (applied(answer)) await noteSent(db, key)
      return answer
    } finally {
      db.close()
    }
  })
}
