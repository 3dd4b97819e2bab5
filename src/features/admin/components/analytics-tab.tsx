import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo } from 'react'
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import type { CatalogueProduct } from '../hooks/use-admin-data'
import { statusLabel } from '../orders/order-board-model'
import { isLowStock, ordersByStatus, revenueByDay, topProducts } from '../order-stats'
import { card, muted, sectionTitle, table } from './admin-styles'
import { TaxReportPanel } from './tax-report-panel'

// Chart colours are the theme's semantic tokens (CSS variables), so they follow light and dark.
const token = (name: string) => `var(--colors-${name.replace('.', '-')})`
const STATUS_COLOURS: Record<string, string> = {
  pending: token('deal.solid'),
  processing: token('accent.fg'),
  shipped: token('accent.solid'),
  delivered: token('fg.muted'),
  cancelled: token('danger.solid'),
}
const axis = { stroke: token('fg.subtle'), fontSize: 12 }
const tooltip = {
  contentStyle: {
    background: token('bg.surface'),
    border: `1px solid ${token('border.default')}`,
    borderRadius: 8,
  },
  labelStyle: { color: token('fg.default') },
  itemStyle: { color: token('fg.default') },
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className={cx(card, css({ p: '5' }))} aria-label={title}>
      <h3 className={sectionTitle}>{title}</h3>
      {children}
    </section>
  )
}

/**
 * Analytics (DESIGN.md §8: real): the tax report from the server, charts from the orders on this
 * device and low stock.
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
  const revenue = useMemo(() => revenueByDay(orders, 30), [orders])
  const statuses = useMemo(() => ordersByStatus(orders), [orders])
  const top = useMemo(() => topProducts(orders, 5), [orders])
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
      <Panel title="Revenue by day (last 30 days)">
        <div className={css({ h: '64' })}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={revenue} margin={{ left: 8, right: 8, top: 8 }}>
              <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
              <XAxis
                dataKey="day"
                tick={axis}
                tickFormatter={(d: string) => d.slice(5)}
                minTickGap={20}
              />
              <YAxis tick={axis} tickFormatter={(v: number) => `$${v}`} width={60} />
              <Tooltip {...tooltip} formatter={(v) => formatMoney(Number(v))} />
              <Line
                type="monotone"
                dataKey="revenue"
                name="Revenue"
                stroke={token('accent.fg')}
                strokeWidth={2}
                dot={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </Panel>
      <Panel title="Orders by status">
        <div className={css({ h: '64' })}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={statuses.map((s) => ({ ...s, label: statusLabel(s.status) }))}
              margin={{ left: 0, right: 8, top: 8 }}
            >
              <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} />
              <YAxis tick={axis} allowDecimals={false} width={32} />
              <Tooltip {...tooltip} cursor={{ fill: token('bg.muted') }} />
              <Bar dataKey="count" name="Orders" radius={[4, 4, 0, 0]}>
                {statuses.map((s) => (
                  <Cell key={s.status} fill={STATUS_COLOURS[s.status]} />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Panel>
      <Panel title="Top products (units sold)">
        {top.length === 0 ? (
          <p className={muted}>No sales yet</p>
        ) : (
          <div className={css({ h: '64' })}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={top} layout="vertical" margin={{ left: 8, right: 16, top: 8 }}>
                <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
                <XAxis type="number" tick={axis} allowDecimals={false} />
                <YAxis type="category" dataKey="name" tick={axis} width={160} />
                <Tooltip {...tooltip} cursor={{ fill: token('bg.muted') }} />
                <Bar
                  dataKey="quantity"
                  name="Units"
                  fill={token('accent.solid')}
                  radius={[0, 4, 4, 0]}
                />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
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
    </div>
  )
}
