// Where a first sync's time goes, for tests/bench/data-bench.ts (docs/decisions/035-first-sync-breakdown.md): each pull
// request's server time (request sent → first byte, from Resource Timing) and transfer (first →
// last byte), the JSON parse of its answer, the storage calls RxDB makes (Dexie over IndexedDB,
// by collection and method), the synchronous part of IndexedDB's put (the structured clone of each
// document) and the main thread's long tasks; and a trace of it all in time, with every IndexedDB
// transaction from its creation to its completion (docs/decisions/050-first-sync-without-a-retry-wait.md). Bench-only: it patches fetch,
// JSON.parse and IDBObjectStore.put and add while a pull runs, IDBDatabase.transaction once the
// page loads (recording only during a pull), and wraps the storage the bench's database is made
// with.
import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb'

export type RequestFigure = {
  fn: string
  rows: number
  /** Since the pull started, ms. */
  start: number
  end: number
  serverMs: number
  transferMs: number
  parseMs: number
  /** Bytes on the wire (compressed) and of the JSON. */
  wireBytes: number
  jsonBytes: number
}

export type StorageFigure = { calls: number; ms: number; docs: number }

/** One IndexedDB transaction, RxDB storage call or mark of the pull, for --trace. */
export type TraceEvent = {
  kind: 'idb' | 'storage' | 'mark'
  /** idb: database and stores; storage: `<collection>.<method>`; mark: what happened. */
  name: string
  /** idb: mode; storage: the write's context. */
  detail: string
  docs: number
  start: number
  end: number
  outcome: string
}

export type PullBreakdown = {
  requests: RequestFigure[]
  trace: TraceEvent[]
  /** `<collection or meta instance>.<method>` → totals. */
  storage: Record<string, StorageFigure>
  /** Synchronous time inside IDBObjectStore.put and add (structured clone and index keys). */
  idbPutMs: number
  idbPuts: number
  longTaskMs: number
  longTasks: number
}

type Probe = {
  breakdown: PullBreakdown
  origin: number
  stop(): void
}

let current: Probe | null = null

const TIMED_METHODS = new Set(['bulkWrite', 'findDocumentsById', 'query', 'count'])

/** The storage to make the bench's database with: the same storage, its calls timed. */
export function timedStorage<I, O>(inner: RxStorage<I, O>): RxStorage<I, O> {
  return {
    name: inner.name,
    rxdbVersion: inner.rxdbVersion,
    async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, O>) {
      const instance: RxStorageInstance<D, I, O> = await inner.createStorageInstance<D>(params)
      // The replication's meta instance is named after its collection: keep them apart.
      const label = params.collectionName.startsWith('rx-replication-meta')
        ? 'replication-meta'
        : params.collectionName
      return new Proxy(instance, {
        get(target, prop, receiver) {
          const value: unknown = Reflect.get(target, prop, receiver)
          if (typeof value !== 'function') return value
          const method = value as (...args: unknown[]) => unknown
          if (typeof prop !== 'string' || !TIMED_METHODS.has(prop)) return method.bind(target)
          return async (...args: unknown[]) => {
            const started = performance.now()
            let outcome = 'ok'
            try {
              return await method.apply(target, args)
            } catch (error) {
              outcome = String(error)
              throw error
            } finally {
              const probe = current
              if (probe) {
                probe.breakdown.trace.push({
                  kind: 'storage',
                  name: `${label}.${prop}`,
                  detail: typeof args[1] === 'string' ? args[1] : '',
                  docs: Array.isArray(args[0]) ? args[0].length : 0,
                  start: started - probe.origin,
                  end: performance.now() - probe.origin,
                  outcome,
                })
                const key = `${label}.${prop}`
                const figure = (probe.breakdown.storage[key] ??= { calls: 0, ms: 0, docs: 0 })
                figure.calls++
                figure.ms += performance.now() - started
                figure.docs += Array.isArray(args[0]) ? args[0].length : 0
              }
            }
          }
        },
      })
    },
  }
}

const traced = new WeakMap<IDBTransaction, TraceEvent>()
const dexieName = /^rxdb-dexie-bench-\d+--\d+--/

/**
 * Every IndexedDB transaction of a probe, created → complete (or abort), with its database and
 * stores; put and add count its documents. Patched once, when this module loads: Dexie binds
 * `IDBDatabase.transaction` when it opens a database, before any pull starts.
 */
const originalTransaction = Object.getOwnPropertyDescriptor(IDBDatabase.prototype, 'transaction')!
  .value as IDBDatabase['transaction']
IDBDatabase.prototype.transaction = function (
  this: IDBDatabase,
  ...args: Parameters<IDBDatabase['transaction']>
) {
  const transaction = originalTransaction.apply(this, args)
  const probe = current
  if (!probe) return transaction
  const names = Array.isArray(args[0]) ? args[0] : [args[0]]
  const event: TraceEvent = {
    kind: 'idb',
    name: `${this.name.replace(dexieName, '')}/${names.join(',')}`,
    detail: args[1] ?? 'readonly',
    docs: 0,
    start: performance.now() - probe.origin,
    end: NaN,
    outcome: 'open',
  }
  probe.breakdown.trace.push(event)
  traced.set(transaction, event)
  const done = (outcome: string) => () => {
    event.end = performance.now() - probe.origin
    event.outcome = outcome
  }
  transaction.addEventListener('complete', done('complete'))
  transaction.addEventListener('abort', done('abort'))
  return transaction
} as IDBDatabase['transaction']

/** Starts measuring; `stop()` restores what it patched. Times are since `origin`. */
export function startPullProbe(origin: number): Probe {
  const breakdown: PullBreakdown = {
    requests: [],
    trace: [],
    storage: {},
    idbPutMs: 0,
    idbPuts: 0,
    longTaskMs: 0,
    longTasks: 0,
  }
  const originalFetch = window.fetch.bind(window)
  const originalParse = JSON.parse.bind(JSON)
  const originalPut = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'put')!
    .value as IDBObjectStore['put']
  const originalAdd = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'add')!
    .value as IDBObjectStore['add']

  // postgrest-js reads a pull's answer as text and parses it at once: the text read is noted
  // here, and the next JSON.parse of that very text is the request's parse.
  const awaitingParse = new Map<string, { figure: RequestFigure; url: string }>()
  JSON.parse = function (text: string, reviver?: Parameters<typeof JSON.parse>[1]) {
    const started = performance.now()
    const value: unknown = originalParse(text, reviver)
    const waiting = awaitingParse.size > 0 ? awaitingParse.get(text) : undefined
    if (waiting) {
      awaitingParse.delete(text)
      const { figure, url } = waiting
      figure.parseMs = performance.now() - started
      figure.end = performance.now() - origin
      figure.rows = (value as { rows?: unknown[] } | null)?.rows?.length ?? 0
      const entry = performance.getEntriesByName(url, 'resource').at(-1) as
        PerformanceResourceTiming | undefined
      if (entry) {
        figure.serverMs = entry.responseStart - entry.requestStart
        figure.transferMs = entry.responseEnd - entry.responseStart
        figure.wireBytes = entry.encodedBodySize
      }
    }
    return value
  } as typeof JSON.parse

  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const fn = /\/rpc\/(pull_[a-z_]+)/.exec(url)?.[1]
    if (!fn) return originalFetch(input, init)
    const figure: RequestFigure = {
      fn,
      rows: 0,
      start: performance.now() - origin,
      end: NaN,
      serverMs: NaN,
      transferMs: NaN,
      parseMs: NaN,
      wireBytes: NaN,
      jsonBytes: NaN,
    }
    breakdown.requests.push(figure)
    const response = await originalFetch(input, init)
    const readText = response.text.bind(response)
    response.text = async () => {
      const text = await readText()
      figure.jsonBytes = text.length
      awaitingParse.set(text, { figure, url: response.url })
      return text
    }
    return response
  }

  IDBObjectStore.prototype.put = function (
    this: IDBObjectStore,
    ...args: Parameters<IDBObjectStore['put']>
  ) {
    const started = performance.now()
    try {
      return originalPut.apply(this, args)
    } finally {
      const event = traced.get(this.transaction)
      if (event) event.docs++
      breakdown.idbPutMs += performance.now() - started
      breakdown.idbPuts++
    }
  }
  // Dexie's bulkAdd (the first pull's own writes, docs/decisions/046-first-sync-from-a-warm-cache.md) adds rather than puts.
  IDBObjectStore.prototype.add = function (
    this: IDBObjectStore,
    ...args: Parameters<IDBObjectStore['add']>
  ) {
    const started = performance.now()
    try {
      return originalAdd.apply(this, args)
    } finally {
      const event = traced.get(this.transaction)
      if (event) event.docs++
      breakdown.idbPutMs += performance.now() - started
      breakdown.idbPuts++
    }
  }

  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      breakdown.longTaskMs += entry.duration
      breakdown.longTasks++
    }
  })
  try {
    observer.observe({ type: 'longtask', buffered: false })
  } catch {
    // no Long Tasks API: the figure stays 0
  }

  const probe: Probe = {
    breakdown,
    origin,
    stop() {
      window.fetch = originalFetch
      JSON.parse = originalParse
      IDBObjectStore.prototype.put = originalPut
      IDBObjectStore.prototype.add = originalAdd
      observer.disconnect()
      if (current === probe) current = null
    },
  }
  current = probe
  return probe
}
