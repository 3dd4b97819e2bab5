import { css, cx } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import type { dashboardStats } from '../order-stats'
import { card } from './admin-styles'

type Stats = ReturnType<typeof dashboardStats>

function Trend({ value }: { value: number | null }) {
  if (value === null) {
    return (
      <span
        className={css({ color: 'fg.subtle', fontSize: 'xs' })}
        title="Nothing in the 30 days before to compare with"
      >
        —
      </span>
    )
  }
  const up = value >= 0
  return (
    <span
      className={css({
        color: up ? 'accent.fg' : 'danger.fg',
        fontSize: 'xs',
        fontWeight: 'semibold',
      })}
      title="Last 30 days against the 30 days before"
    >
      {up ? '+' : ''}
      {value.toFixed(1)}%
    </span>
  )
}

function StatCard(props: { title: string; value: string; note: string; trend: number | null }) {
  return (
    <section className={cx(card, css({ p: '5' }))} aria-label={props.title}>
      <div
        className={css({ alignItems: 'center', display: 'flex', justifyContent: 'space-between' })}
      >
        <h2 className={css({ color: 'fg.muted', fontSize: 'sm', fontWeight: 'medium' })}>
          {props.title}
        </h2>
        <Trend value={props.trend} />
      </div>
      <p className={css({ fontSize: '2xl', fontWeight: 'bold', mt: '2' })} data-testid="stat-value">
        {props.value}
      </p>
      <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '1' })}>{props.note}</p>
    </section>
  )
}

/** The four figures of the dashboard (SPEC.md §2), from the device's data. */
export function StatCards({ stats }: { stats: Stats }) {
  return (
    <div
      className={css({
        display: 'grid',
        gap: '4',
        gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
      })}
    >
      <StatCard
        title="Total Products"
        value={String(stats.totalProducts)}
        note={`${stats.lowStock} low stock`}
        trend={stats.trends.products}
      />
      <StatCard
        title="Total Orders"
        value={String(stats.totalOrders)}
        note={`${stats.pendingOrders} pending`}
        trend={stats.trends.orders}
      />
      <StatCard
        title="Revenue"
        value={formatMoney(stats.revenue)}
        note="Total sales value"
        trend={stats.trends.revenue}
      />
      <StatCard
        title="Avg Order Value"
        value={formatMoney(stats.averageOrderValue)}
        note="Per order average"
        trend={stats.trends.averageOrderValue}
      />
    </div>
  )
}
