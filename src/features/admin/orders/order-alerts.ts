/**
 * The staff tablet's signals for new orders (issue 22): which orders staff have opened on this
 * device, whether the new-order sound is muted, the tab title's count and the sound itself. All
 * kept on the device (localStorage): another tablet keeps its own.
 */

const OPENED_KEY = 'humo.admin.opened-orders'
const MUTE_KEY = 'humo.admin.mute-new-order-sound'
/** Enough for weeks of orders; the oldest ids drop off first. */
const MAX_OPENED = 1000

export const ADMIN_TITLE = 'Humo Admin'

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // NOTE: storage full or blocked: kept for this page only.
  }
}

export function readOpenedOrders(): Set<string> {
  try {
    const list: unknown = JSON.parse(read(OPENED_KEY) ?? '[]')
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [])
  } catch {
    return new Set()
  }
}

/** Remembers that staff opened the order on this device; returns the ids opened. */
export function rememberOpenedOrder(id: string): Set<string> {
  const opened = readOpenedOrders()
  if (opened.has(id)) return opened
  const list = [...opened, id].slice(-MAX_OPENED)
  write(OPENED_KEY, JSON.stringify(list))
  return new Set(list)
}

export function readMuted(): boolean {
  return read(MUTE_KEY) === '1'
}

export function writeMuted(muted: boolean) {
  write(MUTE_KEY, muted ? '1' : null)
}

/**
 * The orders waiting for staff: still pending and not opened on this device. An order someone
 * already moved on is being handled, whoever moved it.
 */
export function unopenedCount(
  orders: readonly { id: string; status: string }[],
  opened: ReadonlySet<string>,
): number {
  return orders.filter((o) => o.status === 'pending' && !opened.has(o.id)).length
}

/** "(2) Humo Admin"; "Humo Admin" when nothing waits. */
export function adminTitle(unopened: number): string {
  return unopened > 0 ? `(${unopened}) ${ADMIN_TITLE}` : ADMIN_TITLE
}

/** The ids in `now` that `known` did not hold, in `now`'s order. */
export function arrivals(known: ReadonlySet<string>, now: readonly { id: string }[]): string[] {
  return now.filter((o) => !known.has(o.id)).map((o) => o.id)
}

let audio: AudioContext | null = null

/**
 * Browsers start audio only after a user gesture on the page: the context is made (or resumed)
 * on the first press or key, so a later new order can sound without one.
 */
export function unlockSound(): void {
  try {
    const Context =
      globalThis.AudioContext ??
      (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext
    if (!Context) return
    audio ??= new Context()
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined)
  } catch {
    audio = null
  }
}

/**
 * A short two-tone chime, generated (no file to fetch offline). Quietly nothing when the browser
 * has not allowed sound yet (no gesture) or has no Web Audio.
 */
export function playNewOrderSound(): boolean {
  const ctx = audio
  if (!ctx || ctx.state !== 'running') return false
  try {
    const start = ctx.currentTime
    for (const [offset, frequency] of [
      [0, 880],
      [0.18, 1320],
    ] as const) {
      const osc = ctx.createOscillator()
      const gain = ctx.createGain()
      osc.type = 'sine'
      osc.frequency.value = frequency
      gain.gain.setValueAtTime(0.0001, start + offset)
      gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02)
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.16)
      osc.connect(gain).connect(ctx.destination)
      osc.start(start + offset)
      osc.stop(start + offset + 0.18)
    }
    return true
  } catch {
    return false
  }
}
