/**
 * Sends queued contact messages through `submit_contact_message`, with the same rules as the
 * order outbox: retry with back-off on anything but a refusal of the data itself, and after a
 * rate limit (429) not before the time the server named.
 */
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import {
  backoffMs,
  isFatalError,
  isRateLimited,
  rateLimitedError,
  rateLimitWaitMs,
} from './order-outbox'

export function startContactOutbox(db: HumoDatabase, supabase: RpcClient) {
  let running: Promise<void> | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const sendDue = async () => {
    const due = await db.contact_messages
      .find({ selector: { sync: 'queued', nextAttemptAt: { $lte: Date.now() } } })
      .exec()
    for (const doc of due) {
      if (stopped) return
      const m = doc.toJSON()
      const { error, status } = await supabase.rpc('submit_contact_message', {
        p: {
          id: m.id,
          firstName: m.firstName,
          lastName: m.lastName,
          email: m.email,
          phone: m.phone || null,
          subject: m.subject,
          message: m.message,
          newsletter: m.newsletter,
        },
      })
      if (!error) await doc.incrementalPatch({ sync: 'sent', lastError: null })
      else if (isRateLimited(error, status))
        await doc.incrementalModify((d) => ({
          ...d,
          attempts: d.attempts + 1,
          nextAttemptAt: Date.now() + Math.max(backoffMs(d.attempts + 1), rateLimitWaitMs(error)),
          lastError: rateLimitedError(error),
        }))
      else if (isFatalError(error))
        await doc.incrementalPatch({ sync: 'refused', lastError: error.message })
      else
        await doc.incrementalModify((d) => ({
          ...d,
          attempts: d.attempts + 1,
          nextAttemptAt: Date.now() + backoffMs(d.attempts + 1),
          lastError: error.message,
        }))
    }
  }

  const flush = (): Promise<void> => {
    running ??= sendDue().finally(() => {
      running = null
      clearTimeout(timer)
      if (!stopped) timer = setTimeout(() => void flush(), 30_000)
    })
    return running
  }
  const inserted = db.contact_messages.insert$.subscribe(() => void flush())
  void flush()
  return {
    flush,
    stop() {
      stopped = true
      clearTimeout(timer)
      inserted.unsubscribe()
    },
  }
}
