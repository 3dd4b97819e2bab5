import { useCallback, useSyncExternalStore } from 'react'
import { DEVICE_KEYS, readDevice, writeDevice } from '../../../lib/device-storage'

/**
 * The wishlist hearts: product ids kept on this device only (SPEC.md §2, "local-only"), in
 * localStorage, so they survive reloads and need no network; My Items lists them, newest heart
 * first. One shared store so every card re-renders when any heart changes, in this tab or another.
 */
const listeners = new Set<() => void>()
let cached: string | null = null
let ids: ReadonlySet<string> = new Set()
let list: readonly string[] = []

function snapshot(): ReadonlySet<string> {
  const raw = readDevice(DEVICE_KEYS.wishlist)
  if (raw !== cached) {
    cached = raw
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : []
      ids = new Set(
        Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [],
      )
    } catch {
      ids = new Set()
    }
    list = [...ids].reverse()
  }
  return ids
}

function subscribe(onChange: () => void) {
  listeners.add(onChange)
  const onStorage = (event: StorageEvent) => event.key === DEVICE_KEYS.wishlist && onChange()
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(onChange)
    window.removeEventListener('storage', onStorage)
  }
}

function listSnapshot(): readonly string[] {
  snapshot()
  return list
}

/** The saved product ids, the most recently hearted first. */
export function useWishlistIds(): readonly string[] {
  return useSyncExternalStore(subscribe, listSnapshot, listSnapshot)
}

export function useWishlist(productId: string): [boolean, () => void] {
  const set = useSyncExternalStore(subscribe, snapshot, snapshot)
  const toggle = useCallback(() => {
    const next = new Set(snapshot())
    if (next.has(productId)) next.delete(productId)
    else next.add(productId)
    writeDevice(DEVICE_KEYS.wishlist, JSON.stringify([...next]))
    listeners.forEach((notify) => notify())
  }, [productId])
  return [set.has(productId), toggle]
}
