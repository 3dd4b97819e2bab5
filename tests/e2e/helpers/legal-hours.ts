import { adminClient } from './admin'

/**
 * Opens the legal handoff hours (4 CCR §15403: 6 AM–10 PM shop time, docs/decisions/055-delivery-by-the-rules.md) for the whole
 * of today on the e2e shop, as its owner would enter a rule in Settings, so a spec that hands
 * orders over passes at whatever hour it runs. Specs about the hours themselves set their own.
 */
export async function openHandoffHoursToday(baseURL: string): Promise<void> {
  const owner = await adminClient(baseURL)
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(
    new Date(),
  )
  for (const [rule, value] of [
    ['handoff_hours_start', 0],
    ['handoff_hours_end', 24],
  ] as const) {
    const { error } = await owner.rpc('admin_save_compliance_rule', {
      p_rule: { rule, value, effectiveFrom: today, source: 'e2e: handoffs at any hour' },
    })
    if (error) throw new Error(`could not open the handoff hours: ${error.message}`)
  }
}
