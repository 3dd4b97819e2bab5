// The embedded server's stand-in for pg_cron (docs/decisions/026-rate-limits-and-unaccepted-orders.md): every minute it asks the database to
// cancel the pending orders staff never accepted within the shop's allowance of opening hours
// (public.cancel_unaccepted_orders, 20261126100100_auto_cancel_unaccepted_orders.sql), so an
// unpaid order cannot hold stock forever. Hosted Supabase schedules the same function with
// pg_cron instead.
import type { PGlite } from '@electric-sql/pglite'

export interface UnacceptedOrderSweep {
  /** Runs one sweep now (tests); resolves to how many orders it cancelled. */
  runOnce(): Promise<number>
  close(): Promise<void>
}

export function startUnacceptedOrderSweep(
  db: PGlite,
  {
    intervalMs = 60_000,
    warn = (message: string) => console.warn(`[humo-backend] ${message}`),
  }: { intervalMs?: number; warn?: (message: string) => void } = {},
): UnacceptedOrderSweep {
  let running: Promise<number> | null = null
  let closed = false

  const runOnce = (): Promise<number> => {
    running ??= db
      .query<{ cancelled: number }>('select public.cancel_unaccepted_orders() as cancelled')
      .then(({ rows }) => rows[0]?.cancelled ?? 0)
      .finally(() => {
        running = null
      })
    return running
  }

  const tick = () => {
    if (closed) return
    runOnce().catch((error: unknown) => {
      // A failed sweep is retried at the next tick; the orders wait a minute longer, no more.
      if (!closed) warn(`cancelling unaccepted orders failed: ${String(error)}`)
    })
  }
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : null
  // Never keeps the process alive on its own.
  timer?.unref()

  return {
    runOnce,
    async close() {
      closed = true
      if (timer) clearInterval(timer)
      await running?.catch(() => 0)
    },
  }
}
