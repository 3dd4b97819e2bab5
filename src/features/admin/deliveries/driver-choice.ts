/**
 * The "Choose a driver" list (issue 32, docs/decisions/055-delivery-by-the-rules.md): the drivers admin_drivers() gives, what
 * each carries out now, and which of them may take one more order under the driver load cap
 * (4 CCR §15418; the cap is a compliance rule the server reads on the day). The server judges
 * again at the push; this only says beforehand what it will say. The last list is kept on the
 * device so a board offline can still send a delivery out (the push waits for the connection).
 */
// The shop's one money formatter groups thousands: a driver's load runs to thousands of dollars
// ("$1,234.00 of $5,000.00").
import { formatMoney } from '../../../lib/money'

export type DriverRow = {
  id: string
  firstName: string | null
  employeeNumber: number | null
  email: string
  /** The sum of the totals of the orders the driver has out now. */
  load: number
  orders: number
}

export type DriversList = { cap: number; drivers: DriverRow[] }

const CACHE_KEY = 'humo.admin.drivers'

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : null
const num = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

/** admin_drivers()'s answer (or the cached copy), read defensively: null when unreadable. */
export function parseDrivers(raw: unknown): DriversList | null {
  if (!raw || typeof raw !== 'object') return null
  const { cap, drivers } = raw as { cap?: unknown; drivers?: unknown }
  const capValue = num(cap)
  if (capValue === null || !Array.isArray(drivers)) return null
  const rows: DriverRow[] = []
  for (const d of drivers as Record<string, unknown>[]) {
    const id = text(d?.id)
    if (!id) continue
    rows.push({
      id,
      firstName: text(d.firstName),
      employeeNumber: num(d.employeeNumber),
      email: text(d.email) ?? '',
      load: num(d.load) ?? 0,
      orders: num(d.orders) ?? 0,
    })
  }
  return { cap: capValue, drivers: rows }
}

/** "Marta", or the email while the driver has not given a first name. */
export function driverLabel(driver: { firstName: string | null; email?: string | null }): string {
  return driver.firstName ?? driver.email ?? 'Driver'
}

/** "$1,234.00 of $5,000.00" */
export function driverLoadText(load: number, cap: number): string {
  return `${formatMoney(load)} of ${formatMoney(cap)}`
}

/**
 * Whether the driver may take an order of `total` now: their load plus the order must stay
 * within the cap. Cents are compared, as money is.
 */
export function driverChoice(
  driver: Pick<DriverRow, 'load'>,
  cap: number,
  total: number,
): { allowed: true } | { allowed: false; reason: string } {
  const cents = (n: number) => Math.round(n * 100)
  if (cents(driver.load) + cents(total) <= cents(cap)) return { allowed: true }
  return {
    allowed: false,
    reason: `This order would take them to ${formatMoney(driver.load + total)}, over the ${formatMoney(cap)} a driver may carry`,
  }
}

export function cachedDrivers(storage: Pick<Storage, 'getItem'> | null = safeStorage()) {
  try {
    const raw = storage?.getItem(CACHE_KEY)
    return raw ? parseDrivers(JSON.parse(raw)) : null
  } catch {
    return null
  }
}

export function cacheDrivers(
  list: DriversList,
  storage: Pick<Storage, 'setItem'> | null = safeStorage(),
) {
  try {
    storage?.setItem(CACHE_KEY, JSON.stringify(list))
  } catch {
    // A full or blocked storage only means no list offline.
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}
