// Import Products over /rest/v1/rpc/admin_import_products without holding the shop
// (docs/decisions/033). PGlite has one connection and runs transactions one at a time, first come
// first served, so one 5,000-row import in one transaction made every other request wait seconds.
// Here the call is run as the migration's three steps, each in a transaction of its own as the
// caller: open an import, check and stage the rows in chunks, apply them in one short set-based
// transaction. The answer, the refusals (same messages, same codes) and all-or-nothing are those
// of the one-call function.
//
// PGlite runs in this process and its queries resolve as promise continuations, so chaining one
// chunk after another would never give the event loop a turn: a request arriving meanwhile could
// not even be read until the import ended. Each chunk therefore waits for the event loop first,
// and a request that arrives during an import queues behind a chunk or two, not the import.
import type { PGlite } from '@electric-sql/pglite'
import { withRequestRole, type RequestAuth, type RequestMeta } from './request-context.ts'

/** Rows checked per transaction: a request sent meanwhile waits at most about this many. */
export const IMPORT_CHUNK_ROWS = 100
/** admin_import_products' own cap: larger imports are left to it to refuse. */
const MAX_IMPORT_ROWS = 5000

/**
 * Lets timers and I/O run before the next transaction is queued. A few milliseconds rather than
 * one turn (setImmediate): a request on its way (its JWT checked on the thread pool, its body
 * read) needs several turns to reach the database queue, and would otherwise wait a chunk more.
 */
export const IMPORT_PAUSE_MS = 3
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, IMPORT_PAUSE_MS))

/** Whether this call is one the chunked import runs (everything else goes to the function). */
export function isChunkedImport(
  name: string,
  args: Record<string, unknown>,
  auth: RequestAuth,
): args is { p_rows: unknown[] } {
  const rows = args.p_rows
  return (
    name === 'admin_import_products' &&
    auth.role !== 'anon' &&
    Object.keys(args).length === 1 &&
    Array.isArray(rows) &&
    rows.length > 0 &&
    rows.length <= MAX_IMPORT_ROWS
  )
}

/**
 * Runs the import and returns admin_import_products' result as JSON text, or throws the
 * database's refusal. A refused or failed import is dropped (nothing of it was applied).
 */
export async function runChunkedImport(
  db: PGlite,
  auth: RequestAuth,
  meta: RequestMeta,
  rows: unknown[],
  chunkRows = IMPORT_CHUNK_ROWS,
): Promise<string> {
  const write = { ...meta, readOnly: false }
  const opened = await withRequestRole(db, auth, write, (tx) =>
    tx.query<{ id: string }>('select public.admin_import_begin() as id'),
  )
  const id = opened.rows[0]!.id
  try {
    for (let first = 0; first < rows.length; first += chunkRows) {
      await nextTurn()
      const chunk = JSON.stringify(rows.slice(first, first + chunkRows))
      await withRequestRole(db, auth, write, (tx) =>
        tx.query('select public.admin_import_stage($1, $2, $3::text::jsonb)', [
          id,
          first + 1,
          chunk,
        ]),
      )
    }
    await nextTurn()
    const applied = await withRequestRole(db, auth, write, (tx) =>
      tx.query<{ body: string }>(
        'select to_json(public.admin_import_apply($1, $2))::text as body',
        [id, rows.length],
      ),
    )
    return applied.rows[0]!.body
  } catch (error) {
    // Its staged rows go now rather than when the next import drops abandoned ones.
    await withRequestRole(db, auth, write, (tx) =>
      tx.query('select public.admin_import_abort($1)', [id]),
    ).catch(() => undefined)
    throw error
  }
}
