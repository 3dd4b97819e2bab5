/**
 * What an export or a report of the back office is made from (issue 25). Right after a sign-in,
 * or a reload, the device may hold nothing yet, or only what an earlier visit pulled: an export
 * taken then was a header-only file, or missed what other staff had changed since. So, online,
 * an export waits for this page's first pull (a bounded time); offline, or when the server does
 * not answer in time, it takes the device's copy only when the device has ever held the whole
 * set, and otherwise says why it cannot export yet.
 */

/** How long an export waits for this page's first pull before it falls back to the device. */
export const EXPORT_WAIT_MS = 10_000

/**
 * - `server`: this page's pull is done; the device holds the server's data as of now.
 * - `device`: the device's copy of an earlier pull (offline, or the server was slow).
 * - `offline` / `loading`: nothing whole to export; offline, or still coming from the server.
 */
export type ExportSource = 'server' | 'device' | 'offline' | 'loading'

export type ExportWait = {
  online: boolean
  /** This page's first pull: true once done, false when nothing replicates. */
  whenPulled: () => Promise<boolean>
  /** The device held the whole set once (an earlier pull of this sign-in's generation). */
  heldBefore: () => boolean
  waitMs?: number
}

/** Waits as above and says where the export's rows may come from. */
export async function exportSource({
  online,
  whenPulled,
  heldBefore,
  waitMs = EXPORT_WAIT_MS,
}: ExportWait): Promise<ExportSource> {
  if (online) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const pulled = await Promise.race([
      whenPulled().catch(() => false),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
    ])
    clearTimeout(timer)
    if (pulled) return 'server'
  }
  if (heldBefore()) return 'device'
  return online ? 'loading' : 'offline'
}

/** What to tell staff when there is nothing whole to export: `what` is "products", "orders". */
export function notReadyMessage(
  source: 'offline' | 'loading',
  what: string,
): { title: string; description: string } {
  const What = what.charAt(0).toUpperCase() + what.slice(1)
  return source === 'offline'
    ? {
        title: `${What} are not on this device yet`,
        description: `You are offline, and this device has not loaded the ${what} since you signed in. Connect to the internet, then try again.`,
      }
    : {
        title: `${What} are still loading`,
        description: `The server has not sent the ${what} yet. Try again in a moment.`,
      }
}

/** Said beside an export taken from the device's earlier copy. */
export const DEVICE_COPY_NOTE = 'From this device’s copy: the server could not be reached just now.'
