/**
 * The audit trail as owners read it (issue 32, docs/decisions/053-staff-roles-and-audit-trail.md): `admin_activity`, newest
 * first, one filter at a time (a person, an order or a product), in pages. Online only: the
 * trail is not copied to devices.
 */
import type { SupabaseClient } from '@supabase/supabase-js'

export type ActivityEntry = {
  id: number
  at: string
  actorId: string | null
  actorEmail: string | null
  actorRole: string | null
  action: string
  entity: string
  entityId: string | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

export type ActivityFilter =
  | { kind: 'all' }
  | { kind: 'person'; id: string }
  | { kind: 'order'; id: string }
  | { kind: 'product'; id: string }

export type ActivityCursor = { before: string; beforeId: number }
export type ActivityPage = { rows: ActivityEntry[]; next: ActivityCursor | null }

export const PAGE_SIZE = 100
/** The most an export gathers (in pages of 1000), so a long history cannot hang the tab. */
export const EXPORT_LIMIT = 20_000

function filterArgs(filter: ActivityFilter) {
  switch (filter.kind) {
    case 'person':
      return { p_person: filter.id }
    case 'order':
      return { p_order: filter.id }
    case 'product':
      return { p_product: filter.id }
    case 'all':
      return {}
  }
}

export async function fetchActivity(
  supabase: SupabaseClient,
  filter: ActivityFilter,
  cursor: ActivityCursor | null = null,
  limit = PAGE_SIZE,
): Promise<ActivityPage> {
  const response = await supabase.rpc('admin_activity', {
    ...filterArgs(filter),
    p_limit: limit,
    ...(cursor ? { p_before: cursor.before, p_before_id: cursor.beforeId } : {}),
  })
  if (response.error) throw new Error(response.error.message)
  return response.data as ActivityPage
}

/** Every entry the filter selects (up to EXPORT_LIMIT), for the CSV. */
export async function fetchAllActivity(
  supabase: SupabaseClient,
  filter: ActivityFilter,
): Promise<ActivityEntry[]> {
  const all: ActivityEntry[] = []
  let cursor: ActivityCursor | null = null
  do {
    const page: ActivityPage = await fetchActivity(supabase, filter, cursor, 1000)
    all.push(...page.rows)
    cursor = page.next
  } while (cursor && all.length < EXPORT_LIMIT)
  return all
}
