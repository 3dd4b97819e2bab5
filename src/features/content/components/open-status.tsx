import { useEffect, useState } from 'react'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { openStatus, type OpenStatus } from '../../../lib/shop-hours'

/**
 * "Open now · closes 8:00 PM" / "Closed · opens 10:00 AM", in the shop's time zone, refreshed
 * every minute. Worked out only after mount: the server's copies of pages are cached and would
 * carry a stale "Open now"; the empty span keeps the line's place until then.
 */
export function OpenStatusText({ className }: { className?: string }) {
  const { hours } = useShopSettings()
  const [status, setStatus] = useState<OpenStatus | null>(null)
  useEffect(() => {
    let timer: number
    // On the minute, so "closes" turns into "Closed" when the shop closes, not up to 59 s late.
    const update = () => {
      const now = new Date()
      setStatus(openStatus(hours, now))
      timer = window.setTimeout(update, 60_000 - (now.getTime() % 60_000) + 50)
    }
    update()
    return () => window.clearTimeout(timer)
  }, [hours])
  return (
    <span className={className} data-open={status ? String(status.open) : undefined}>
      {status?.text}
    </span>
  )
}
