import { css, cx } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import { comparisonText, percentChange, type dashboardStats, type Period } from '../order-stats'
import { card } from './admin-styles'

type Stats = ReturnType<typeof dashboardStats>

/** "+50.0% vs the previous 30 days": in words as well as colour (up, down or level). */
function Trend({ period, format }: { period: Period; format?: (n: number) => string }) {
  const change = percentChange(period.last, period.before) ?? period.last - period.before
  return (
    <p
      data-testid="stat-trend"
      className={css({
        color: change > 0 ? 'accent.fg' : change < 0 ? 'danger.fg' : 'fg.muted',
        fontSize: 'xs',
        fontWeight: 'semibold',
        mt: '1',
      })}
    >
      {comparisonText(period, format)}
    </p>
  )
}

function StatCard(props: {
  title: string
  value: string
  note: string
  /** What the last 30 days hold, e.g. "3 added in the last 30 days". */
  recent: string
  period: Period
  format?: (n: number) => string
}) {
  return (
    <section className={cx(card, css({ p: '5' }))} aria-label={props.title}>
      <h2 className={css({ color: 'fg.muted', fontSize: 'sm', fontWeight: 'medium' })}>
        {props.title}
      </h2>
      <p className={css({ fontSize: '2xl', fontWeight: 'bold', mt: '2' })} data-testid="stat-value">
        {props.value}
      </p>
      <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '1' })}>{props.note}</p>
      <p className={css({ color: 'fg.muted', fontSize: 'xs', mt: '2' })}>{props.recent}</p>
      <Trend period={props.period} format={props.format} />
    </section>
  )
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * The four figures of the dashboard (SPEC.md §2), from the device's data. Each says what its
 * trend compares: the last 30 days against the 30 days before (DESIGN.md §8, issue 33).
 */
export function StatCards({ stats }: { stats: Stats }) {
  const { periods } = stats
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
        note={`${stats.lowStock} low stock (under 10 units)`}
        recent={`${plural(periods.products.last, 'product', 'products')} added in the last 30 days`}
        period={periods.products}
      />
      <StatCard
        title="Total Orders"
        value={String(stats.totalOrders)}
        note={`${stats.pendingOrders} pending`}
        recent={`${plural(periods.orders.last, 'order', 'orders')} in the last 30 days`}
        period={periods.orders}
      />
      <StatCard
        title="Revenue"
        value={formatMoney(stats.revenue)}
        note="Total sales value, cancelled orders left out"
        recent={`${formatMoney(periods.revenue.last)} in the last 30 days`}
        period={periods.revenue}
        format={formatMoney}
      />
      <StatCard
        title="Avg Order Value"
        value={formatMoney(stats.averageOrderValue)}
        note="Per order average"
        recent={`${formatMoney(periods.averageOrderValue.last)} per order in the last 30 days`}
        period={periods.averageOrderValue}
        format={formatMoney}
      />
    </div>
  )
}
