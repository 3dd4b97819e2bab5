import { useEffect, useState } from 'react'

type BatteryManagerLike = EventTarget & { level: number; charging: boolean }
type NavigatorWithExtras = Navigator & {
  getBattery?: () => Promise<BatteryManagerLike>
  connection?: { effectiveType?: string; saveData?: boolean }
}

/** SPEC.md §9: video autoplay is off at 20 % battery or less (when not charging). */
export function useLowBattery(): boolean {
  const [low, setLow] = useState(false)
  useEffect(() => {
    const nav = navigator as NavigatorWithExtras
    if (!nav.getBattery) return
    let battery: BatteryManagerLike | null = null
    const update = () => battery && setLow(battery.level <= 0.2 && !battery.charging)
    void nav.getBattery().then((b) => {
      battery = b
      update()
      b.addEventListener('levelchange', update)
      b.addEventListener('chargingchange', update)
    })
    return () => {
      battery?.removeEventListener('levelchange', update)
      battery?.removeEventListener('chargingchange', update)
    }
  }, [])
  return low
}

/** SPEC.md §7: skip preloading video on very slow connections or when data saving is on. */
export function shouldPreloadVideo(): boolean {
  // A server render has no navigator (globalThis.navigator is absent before Node 21).
  const connection = (globalThis.navigator as NavigatorWithExtras | undefined)?.connection
  if (!connection) return true
  return !connection.saveData && !['slow-2g', '2g'].includes(connection.effectiveType ?? '')
}
