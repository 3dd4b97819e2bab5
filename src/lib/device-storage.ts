/**
 * Small flags and lists kept on the device (localStorage), with their keys in one place.
 * Reads never throw: storage can be unavailable (private mode, quota), and then nothing is kept.
 */
export const DEVICE_KEYS = {
  /** DESIGN.md §9: the 21+ answer, remembered on this device. */
  ageVerified: 'humo.age-verified',
  /** SPEC.md §2: "Don't show this again" in the text-updates modal; nothing reads it back. */
  textUpdatesSeen: 'humo.text-updates-seen',
  /** SPEC.md §3: the storefront theme, 'light' or 'dark'; unset follows the system. */
  theme: 'theme',
  /** Product ids the shopper hearted; local only. */
  wishlist: 'humo.wishlist',
} as const

export type DeviceKey = (typeof DEVICE_KEYS)[keyof typeof DEVICE_KEYS]

export function readDevice(key: DeviceKey): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    return null
  }
}

export function writeDevice(key: DeviceKey, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key)
    else globalThis.localStorage?.setItem(key, value)
  } catch {
    // NOTE: storage full or blocked: the flag lives for this page only.
  }
}
