/**
 * Ends the current task and continues in a new one, so the browser can paint and answer input
 * between two long pieces of start-up work (each task over 50 ms blocks a phone's taps).
 * `scheduler.yield()` continues ahead of other queued tasks where the browser has it.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
