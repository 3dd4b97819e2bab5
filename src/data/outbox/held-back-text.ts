/**
 * What screens say about an order or message a rate limit holds back on this device (decision
 * 026). Apart from order-outbox.ts, which every page loads at boot, so that the shop's clock
 * (pickup-windows.ts) loads only with the screens that show it.
 */
import { formatShopTime } from '../../lib/pickup-windows'
import { RATE_LIMITED } from './order-outbox'

/** The server's rate-limit message when the last send was refused for now, else null. */
export function rateLimitNotice(lastError: string | null | undefined): string | null {
  return lastError?.startsWith(RATE_LIMITED) ? lastError.slice(RATE_LIMITED.length) : null
}

/**
 * What a screen says about an order or message the server asked this device to hold back: the
 * server's reason, and that the device sends it by itself at the time the server named, so
 * nobody places it twice. Null when no limit holds it back.
 */
export function heldBackText(
  what: 'order' | 'message',
  item: { sync: string; lastError?: string | null; nextAttemptAt: number },
  now: Date = new Date(),
): string | null {
  if (item.sync !== 'queued' && item.sync !== 'sending') return null
  const notice = rateLimitNotice(item.lastError)
  if (!notice) return null
  // "Too many orders from this connection." without "Please wait … and try again.", which is
  // the device's job here.
  const reason = /^[^.]*\./.exec(notice)?.[0] ?? notice
  const at = formatShopTime(new Date(item.nextAttemptAt), now)
  return what === 'order'
    ? `${reason} Your order is saved on this device and will be sent again automatically at ${at}; there is no need to place it again.`
    : `${reason} Your message is saved on this device and will be sent automatically at ${at}; there is no need to send it again.`
}
