import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { downloadText, today } from '../admin-csv'
import type { AdminProductRow } from '../admin-product'
import { shopDateTime } from '../admin-time'
import { card, errorBox, fieldLabel, muted, table } from '../components/admin-styles'
import { useOnline } from '../hooks/use-online'
import { fetchStaffMembers, type StaffMember } from '../staff/staff-api'
import {
  fetchActivity,
  fetchAllActivity,
  type ActivityCursor,
  type ActivityEntry,
  type ActivityFilter,
} from './activity-api'
import { actionLabel, activityToCsv, actorLabel, changeText } from './activity-text'

type Props = { supabase: SupabaseClient | null; products: AdminProductRow[] | null }
type FilterKind = ActivityFilter['kind']

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

export const ACTIVITY_OFFLINE =
  'You are offline. The activity log is read from the server (it is not kept on this device); it shows again once you are back online.'

/** The filter the controls describe, or a message saying what is missing. */
function filterOf(kind: FilterKind, value: string): ActivityFilter | string {
  if (kind === 'all') return { kind }
  const id = value.trim()
  if (kind === 'order' && !UUID.test(id))
    return 'Enter the order’s full ID (Order details show it), e.g. 8c1f…-…'
  if (!id) return kind === 'person' ? 'Choose a person' : 'Choose a product'
  return { kind, id }
}

/**
 * Admin > Activity, for owners (issue 32): the audit trail, newest first, filtered by a person,
 * an order or a product, with more on demand and an export of what the filter selects. Online
 * only; times in the shop's time zone.
 */
export function ActivityTab({ supabase, products }: Props) {
  const online = useOnline()
  const [kind, setKind] = useState<FilterKind>('all')
  const [value, setValue] = useState('')
  const [filter, setFilter] = useState<ActivityFilter>({ kind: 'all' })
  const [entries, setEntries] = useState<ActivityEntry[] | null>(null)
  const [next, setNext] = useState<ActivityCursor | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [staff, setStaff] = useState<StaffMember[]>([])

  const load = useCallback(
    async (wanted: ActivityFilter, cursor: ActivityCursor | null) => {
      if (!supabase) return
      setBusy(true)
      setError(null)
      try {
        const page = await fetchActivity(supabase, wanted, cursor)
        setEntries((shown) => (cursor ? [...(shown ?? []), ...page.rows] : page.rows))
        setNext(page.next)
      } catch (e) {
        setError(errorText(e))
      } finally {
        setBusy(false)
      }
    },
    [supabase],
  )

  useEffect(() => {
    if (!online || !supabase) return
    void load(filter, null)
    fetchStaffMembers(supabase).then(setStaff, () => setStaff([]))
  }, [online, supabase, filter, load])

  const apply = () => {
    const wanted = filterOf(kind, value)
    if (typeof wanted === 'string') return setError(wanted)
    setFilter(wanted)
  }

  const exportCsv = async () => {
    if (!supabase || !online) return setError(ACTIVITY_OFFLINE)
    setBusy(true)
    try {
      const all = await fetchAllActivity(supabase, filter)
      downloadText(`humo-activity-${today()}.csv`, activityToCsv(all))
      toaster.create({ type: 'success', title: `Exported ${all.length} activity entries` })
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  if (!online) {
    return (
      <p role="status" className={cx(card, muted, css({ p: '5' }))}>
        {ACTIVITY_OFFLINE}
      </p>
    )
  }

  return (
    <section aria-label="Activity" className={cx(card, css({ display: 'grid', gap: '4', p: '5' }))}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          apply()
        }}
        className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '2' })}
      >
        <div>
          <label htmlFor="activity-filter" className={fieldLabel}>
            Show
          </label>
          <select
            id="activity-filter"
            className={input()}
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as FilterKind)
              setValue('')
            }}
          >
            <option value="all">Everything</option>
            <option value="person">One person</option>
            <option value="order">One order</option>
            <option value="product">One product</option>
          </select>
        </div>
        {kind === 'person' && (
          <div>
            <label htmlFor="activity-person" className={fieldLabel}>
              Person
            </label>
            <select
              id="activity-person"
              className={input()}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            >
              <option value="">Choose…</option>
              {staff.map((s) => (
                <option key={s.userId} value={s.userId}>
                  {s.email ?? s.userId} ({s.role})
                </option>
              ))}
            </select>
          </div>
        )}
        {kind === 'order' && (
          <div>
            <label htmlFor="activity-order" className={fieldLabel}>
              Order ID
            </label>
            <input
              id="activity-order"
              className={input()}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
        )}
        {kind === 'product' && (
          <div>
            <label htmlFor="activity-product" className={fieldLabel}>
              Product
            </label>
            <select
              id="activity-product"
              className={input()}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            >
              <option value="">Choose…</option>
              {(products ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.sku})
                </option>
              ))}
            </select>
          </div>
        )}
        <Button type="submit" variant="outline" disabled={busy}>
          Apply filter
        </Button>
        <Button type="button" disabled={busy} onClick={() => void exportCsv()}>
          Export CSV
        </Button>
      </form>
      {error && (
        <p role="alert" className={errorBox}>
          {error}
        </p>
      )}
      <ActivityTable entries={entries} />
      {next && (
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() => void load(filter, next)}
        >
          Show older activity
        </Button>
      )}
    </section>
  )
}

function ActivityTable({ entries }: { entries: ActivityEntry[] | null }) {
  if (!entries) return <p className={muted}>Loading the activity log…</p>
  if (entries.length === 0) return <p className={muted}>No activity recorded for this filter.</p>
  return (
    <div className={css({ overflowX: 'auto' })}>
      <table className={table} aria-label="Activity log">
        <thead>
          <tr>
            <th>When</th>
            <th>Who</th>
            <th>What</th>
            <th>Before → after</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td className={css({ whiteSpace: 'nowrap' })}>{shopDateTime(e.at)}</td>
              <td>{actorLabel(e)}</td>
              <td>
                {actionLabel(e.action)}
                {e.entityId ? (
                  <span className={cx(muted, css({ display: 'block', fontSize: 'xs' }))}>
                    {e.entity} {e.entityId}
                  </span>
                ) : null}
              </td>
              <td className={css({ overflowWrap: 'anywhere' })}>{changeText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
