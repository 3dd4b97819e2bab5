/** A day of the shop's calendar (YYYY-MM-DD) in words, and the day before one. */
const LONG = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

export const dayInWords = (day: string): string => LONG.format(new Date(`${day}T12:00:00Z`))

export function dayBefore(day: string): string {
  const date = new Date(`${day}T12:00:00Z`)
  date.setUTCDate(date.getUTCDate() - 1)
  return date.toISOString().slice(0, 10)
}
