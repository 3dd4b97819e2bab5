import { useNavigate, useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import {
  parseAdminSearch,
  type AdminSearch,
  type AnalyticsRangeChoice,
  type PresetDays,
} from '../admin-search'
import { Button } from '../../../ui/button'
import { RANGE_CHOICES, resolveRange, type DayRange } from '../analytics-range'
import { errorBox, fieldLabel } from './admin-styles'

/** Analytics' range, from the address (?days=7, ?from=…&to=…). */
export function useAnalyticsRange() {
  // The route declares no search (src/routes/admin.tsx): it is parsed here.
  const raw: Record<string, unknown> = useSearch({ from: '/admin' })
  const search = parseAdminSearch(raw)
  const navigate = useNavigate({ from: '/admin' })
  const { days, from, to } = search
  const range = useMemo(() => resolveRange({ days, from, to }), [days, from, to])
  // Replacing the entry: stepping through ranges is not worth a Back press each.
  const setSearch = (next: AdminSearch) =>
    void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
  return { search, range, setSearch }
}

/**
 * The date range buttons (last 7, 30 or 90 days, custom dates) and, for custom dates, the From
 * and To fields. The choice lives in the address, so a reload or a shared link keeps it.
 */
export function AnalyticsRangeControl({
  search,
  range,
  onChange,
}: {
  search: AdminSearch
  range: DayRange
  onChange: (next: AdminSearch) => void
}) {
  const choose = (choice: AnalyticsRangeChoice) =>
    onChange(
      choice === 'custom'
        ? { days: undefined, from: search.from ?? range.from, to: search.to ?? range.to }
        : { days: Number(choice) as PresetDays, from: undefined, to: undefined },
    )
  const custom = search.from !== undefined || search.to !== undefined
  return (
    <div className={css({ display: 'grid', gap: '3', gridColumn: '1 / -1' })}>
      <div
        role="group"
        aria-label="Date range"
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}
      >
        {RANGE_CHOICES.map((c) => {
          const pressed = c.value === (custom ? 'custom' : range.choice)
          return (
            <Button
              key={c.value}
              size="sm"
              variant={pressed ? 'solid' : 'outline'}
              aria-pressed={pressed}
              onClick={() => choose(c.value)}
            >
              {c.label}
            </Button>
          )
        })}
      </div>
      {custom && (
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
          <DayField
            label="From"
            value={search.from ?? ''}
            onChange={(from) => onChange({ from: from || undefined, to: search.to })}
          />
          <DayField
            label="To"
            value={search.to ?? ''}
            onChange={(to) => onChange({ from: search.from, to: to || undefined })}
          />
        </div>
      )}
      {range.problem && (
        <p role="alert" className={errorBox}>
          {range.problem} Showing the last 30 days.
        </p>
      )}
    </div>
  )
}

function DayField(props: { label: string; value: string; onChange: (day: string) => void }) {
  return (
    <label className={css({ display: 'grid', gap: '1' })}>
      <span className={fieldLabel}>{props.label}</span>
      <input
        type="date"
        value={props.value}
        // An emptied field leaves the other end alone; the range then says what is missing.
        onChange={(e) => props.onChange(e.target.value)}
        className={cx(input(), css({ w: '44' }))}
      />
    </label>
  )
}
