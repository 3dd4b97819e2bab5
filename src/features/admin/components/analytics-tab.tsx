import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { ordersInRange, revenueByShopDay, type DayRange } from '../analytics-range'
import type { CatalogueProduct } from '../hooks/use-admin-data'
import { isLowStock, ordersByStatus, periodTotals, topProducts } from '../order-stats'
import { card, muted, sectionTitle, table } from './admin-styles'
import { AnalyticsRangeControl, useAnalyticsRange } from './analytics-range-control'
import { RevenueChart, StatusChart, TopProductsChart } from './analytics-charts'
import { TaxReportPanel } from './tax-report-panel'

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className={cx(card, css({ p: '5' }))} aria-label={title}>
      <h3 className={sectionTitle}>{title}</h3>
      {children}
    </section>
  )
}

const figures = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(3, 1fr)' },
  m: '0',
  '& dt': { color: 'fg.muted', fontSize: 'sm' },
  '& dd': { fontSize: 'xl', fontVariantNumeric: 'tabular-nums', fontWeight: 'bold', m: '0' },
})

/** The range's own figures, with what they count. */
function RangeFigures({ range, orders }: { range: DayRange; orders: AdminOrderDoc[] }) {
  const totals = periodTotals(orders)
  return (
    <section
      className={cx(card, css({ gridColumn: '1 / -1', p: '5' }))}
      aria-label="Figures for the range"
    >
      <h3 className={sectionTitle}>{range.label}</h3>
      <dl className={figures}>
        <div>
          <dt>Revenue</dt>
          <dd data-testid="range-revenue">{formatMoney(totals.revenue)}</dd>
        </div>
        <div>
          <dt>Orders</dt>
          <dd data-testid="range-orders">{totals.orders}</dd>
        </div>
        <div>
          <dt>Avg Order Value</dt>
          <dd data-testid="range-average">{formatMoney(totals.averageOrderValue)}</dd>
        </div>
      </dl>
      <p className={cx(muted, css({ mt: '3' }))}>
        Orders placed from {range.from} to {range.to} (shop days, both included), from this
        device&apos;s copy of the orders; cancelled orders are left out of the revenue.
      </p>
    </section>
  )
}

/**
 * Analytics (DESIGN.md §8: real): a date range kept in the address (issue 33) for the figures
 * and charts of the orders on this device, the tax report from the server, and low stock.
 */
export function AnalyticsTab({
  orders,
  catalogue,
  ordersNote,
  supabase,
  onOpenMetrc,
}: {
  orders: AdminOrderDoc[]
  catalogue: CatalogueProduct[]
  /** The tax report asks the server (it covers every sale, not only this device's). */
  supabase: SupabaseClient | null
  /** Said while the device's orders are not the server's yet (loading, offline). */
  ordersNote?: string | null
  /** Opens "Metrc sales" (the day's sales by package, for Metrc). */
  onOpenMetrc?: () => void
}) {
  const { search, range, setSearch } = useAnalyticsRange()
  const inRange = useMemo(() => ordersInRange(orders, range), [orders, range])
  const revenue = useMemo(() => revenueByShopDay(inRange, range), [inRange, range])
  const statuses = useMemo(() => ordersByStatus(inRange), [inRange])
  const top = useMemo(() => topProducts(inRange, 5), [inRange])
  const lowStock = useMemo(
    () => catalogue.filter(isLowStock).sort((a, b) => (a.stock ?? 0) - (b.stock ?? 0)),
    [catalogue],
  )

  return (
    <div
      className={css({
        display: 'grid',
        gap: '4',
        gridTemplateColumns: { base: '1fr', lg: '1fr 1fr' },
      })}
    >
      {ordersNote && (
        <p role="status" className={cx(muted, css({ gridColumn: '1 / -1' }))}>
          {ordersNote}
        </p>
      )}
      <AnalyticsRangeControl search={search} range={range} onChange={setSearch} />
      <RangeFigures range={range} orders={inRange} />
      <Panel title={`Revenue by day (${range.label})`}>
        <RevenueChart data={revenue} />
      </Panel>
      <Panel title={`Orders by status (${range.label})`}>
        <StatusChart statuses={statuses} />
      </Panel>
      <Panel title={`Top products, units sold (${range.label})`}>
        <TopProductsChart top={top} />
      </Panel>
      <Panel title={`Low stock (${lowStock.length})`}>
        {lowStock.length === 0 ? (
          <p className={muted}>Every product is well stocked.</p>
        ) : (
          // Focusable and named: a keyboard can scroll it (axe's scrollable-region-focusable).
          <div
            role="region"
            aria-label="Low stock products"
            tabIndex={0}
            className={css({ maxH: '64', overflowY: 'auto' })}
          >
            <p className={cx(muted, css({ mb: '2' }))}>Under 10 units in stock now.</p>
            <table className={table}>
              <thead>
                <tr>
                  <th>Product</th>
                  <th>SKU</th>
                  <th>Stock</th>
                </tr>
              </thead>
              <tbody>
                {lowStock.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name}</td>
                    <td className={muted}>{p.sku}</td>
                    <td>
                      <span className={badge({ tone: (p.stock ?? 0) <= 0 ? 'danger' : 'deal' })}>
                        {(p.stock ?? 0) <= 0 ? 'Out of stock' : `${p.stock} units`}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <TaxReportPanel supabase={supabase} />
      {onOpenMetrc && (
        <Panel title="Metrc sales">
          <p className={muted}>
            Each day&apos;s completed sales and returns by Metrc package, as the CSV Metrc imports.
          </p>
          <Button className={css({ mt: '3' })} onClick={onOpenMetrc}>
            Open Metrc sales
          </Button>
        </Panel>
      )}
    </div>
  )
}
