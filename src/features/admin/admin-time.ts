/**
 * Admin's times in the shop's time zone (issue 32): order history, invitations and the activity
 * log read the same on every device, as the shopper's screens do (your-orders-page.tsx), not in
 * whatever zone the device is set to. The zone's short name is shown, so nobody misreads it.
 */
import { SHOP_TIME_ZONE } from '../../lib/shop-hours'

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
})

const DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  month: 'short',
  day: 'numeric',
  year: 'numeric',
})

// A calendar day without a time ("2026-11-30") is already the shop's day: shown as it is.
const PLAIN_DAY = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
})

/** "Nov 29, 2026, 4:05 PM PST", or '' for a missing or unreadable instant. */
export function shopDateTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : DATE_TIME.format(date)
}

/** "Nov 29, 2026" on the shop's calendar. */
export function shopDate(iso: string | null | undefined): string {
  if (!iso) return ''
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return PLAIN_DAY.format(new Date(`${iso}T00:00:00Z`))
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date)
}
