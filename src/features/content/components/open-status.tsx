import { useEffect, useState } from 'react'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { openStatus, phoneOrderText, type WeeklyHours } from '../../../lib/shop-hours'

/**
 * `read` of the shop's hours now, refreshed on each minute. Worked out only after mount: the
 * server's copies of pages are cached and would carry a stale "Open now".
 */
function useEveryMinute<T>(read: (hours: WeeklyHours, now: Date) => T): T | null {
  const { hours } = useShopSettings()
  const [value, setValue] = useState<T | null>(null)
  useEffect(() => {
    let timer: number
    // On the minute, so "closes" turns into "Closed" when the shop closes, not up to 59 s late.
    const update = () => {
      const now = new Date()
      setValue(read(hours, now))
      timer = window.setTimeout(update, 60_000 - (now.getTime() % 60_000) + 50)
    }
    update()
    return () => window.clearTimeout(timer)
  }, [hours, read])
  return value
}

/**
 * "Open now · closes 8:00 PM" / "Closed · opens 10:00 AM", in the shop's time zone; the empty
 * span keeps the line's place until mounted.
 */
export function OpenStatusText({ className }: { className?: string }) {
  const status = useEveryMinute(openStatus)
  return (
    <span className={className} data-open={status ? String(status.open) : undefined}>
      {status?.text}
    </span>
  )
}

/**
 * "Order by phone until 6:00 PM" / "Order by phone from 9:00 AM tomorrow": the phone takes
 * orders in the shop's opening hours, from its settings (decision 058), never "24/7". Before
 * mount (the server's copy): "Order by phone".
 */
export function PhoneHoursText({ className }: { className?: string }) {
  const text = useEveryMinute(phoneOrderText)
  return <span className={className}>{text ?? 'Order by phone'}</span>
}
