/**
 * The admin's address search (issue 33): Analytics' date range, so a range can be bookmarked
 * and shared ("?days=7", "?from=2026-11-01&to=2026-11-28"). Parsed here, in the admin's chunk,
 * not by the /admin route's validateSearch, which every storefront page loads with the route
 * tree. Anything else, or anything malformed, is dropped (Analytics then shows its default range).
 */
export const ANALYTICS_RANGES = ['7', '30', '90', 'custom'] as const
export type AnalyticsRangeChoice = (typeof ANALYTICS_RANGES)[number]
/** The preset lengths, in days ("?days=7"); custom dates are "?from=…&to=…". */
export const PRESET_DAYS = [7, 30, 90] as const
export type PresetDays = (typeof PRESET_DAYS)[number]

export type AdminSearch = { days?: PresetDays; from?: string; to?: string }

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A calendar day "YYYY-MM-DD" that exists (no 2026-02-30). */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export function parseAdminSearch(input: Record<string, unknown>): AdminSearch {
  const search: AdminSearch = {}
  // The router parses "?days=30" as the number 30.
  const days = Number(input.days)
  if ((PRESET_DAYS as readonly number[]).includes(days)) search.days = days as PresetDays
  if (isCalendarDay(input.from)) search.from = input.from
  if (isCalendarDay(input.to)) search.to = input.to
  return search
}
