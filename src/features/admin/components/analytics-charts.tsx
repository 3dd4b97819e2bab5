import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Line,
  LineChart,
  Rectangle,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
} from 'recharts'
import { css } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import { dayLabel } from '../analytics-range'
import { statusLabel } from '../orders/order-board-model'
import type { ordersByStatus, topProducts } from '../order-stats'
import { muted } from './admin-styles'

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
const dataLabel = { fill: token('fg.default'), fontSize: 12 }
const axisTitle = (value: string, vertical = false) => ({
  value,
  fill: token('fg.muted'),
  fontSize: 12,
  ...(vertical
    ? { angle: -90, position: 'insideLeft' as const }
    : { position: 'insideBottom' as const, offset: -4 }),
})
const tooltip = {
  contentStyle: {
    background: token('bg.surface'),
    border: `1px solid ${token('border.default')}`,
    borderRadius: 8,
  },
  labelStyle: { color: token('fg.default') },
  itemStyle: { color: token('fg.default') },
}
const chartBox = css({ h: '72' })

/**
 * A bar that screen readers name ("Pending: 3 orders"): recharts draws a bare path, which says
 * nothing of what it measures.
 */
function namedBar(name: (payload: Record<string, unknown>) => string) {
  return function NamedBar(props: BarShapeProps) {
    return (
      <g role="img" aria-label={name((props.payload ?? {}) as Record<string, unknown>)}>
        <Rectangle
          x={props.x}
          y={props.y}
          width={props.width}
          height={props.height}
          fill={props.fill}
          radius={props.radius}
        />
      </g>
    )
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export function RevenueChart({ data }: { data: { day: string; revenue: number }[] }) {
  return (
    <div className={chartBox}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ left: 8, right: 8, top: 8, bottom: 16 }}>
          <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
          <XAxis
            dataKey="day"
            tick={axis}
            tickFormatter={(d: string) => d.slice(5)}
            minTickGap={20}
            label={axisTitle('Shop day')}
          />
          <YAxis
            tick={axis}
            tickFormatter={(v: number) => formatMoney(v)}
            width={88}
            label={axisTitle('Revenue', true)}
          />
          <Tooltip
            {...tooltip}
            labelFormatter={(d) => (typeof d === 'string' ? dayLabel(d) : '')}
            formatter={(v) => formatMoney(Number(v))}
          />
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
  )
}

type StatusCount = ReturnType<typeof ordersByStatus>[number]

const statusBar = namedBar(
  (p) => `${String(p.label)}: ${plural(Number(p.count), 'order', 'orders')}`,
)

export function StatusChart({ statuses }: { statuses: StatusCount[] }) {
  const data = statuses.map((s) => ({ ...s, label: statusLabel(s.status) }))
  return (
    <div className={chartBox}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: 8, right: 8, top: 24, bottom: 16 }}>
          <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} interval={0} label={axisTitle('Status')} />
          <YAxis tick={axis} allowDecimals={false} width={48} label={axisTitle('Orders', true)} />
          <Tooltip {...tooltip} cursor={{ fill: token('bg.muted') }} />
          <Bar dataKey="count" name="Orders" radius={[4, 4, 0, 0]} shape={statusBar}>
            {data.map((s) => (
              <Cell key={s.status} fill={STATUS_COLOURS[s.status]} />
            ))}
            <LabelList dataKey="count" position="top" {...dataLabel} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

type TopProduct = ReturnType<typeof topProducts>[number]

const productBar = namedBar(
  (p) =>
    `${String(p.name)}: ${plural(Number(p.quantity), 'unit', 'units')} sold, ${formatMoney(Number(p.revenue))}`,
)

export function TopProductsChart({ top }: { top: TopProduct[] }) {
  if (top.length === 0) return <p className={muted}>No sales in this range</p>
  return (
    <div className={chartBox}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={top} layout="vertical" margin={{ left: 8, right: 40, top: 8, bottom: 16 }}>
          <CartesianGrid stroke={token('border.default')} strokeDasharray="3 3" />
          <XAxis type="number" tick={axis} allowDecimals={false} label={axisTitle('Units sold')} />
          <YAxis type="category" dataKey="name" tick={axis} width={160} />
          <Tooltip {...tooltip} cursor={{ fill: token('bg.muted') }} />
          <Bar
            dataKey="quantity"
            name="Units sold"
            fill={token('accent.solid')}
            radius={[0, 4, 4, 0]}
            shape={productBar}
          >
            <LabelList dataKey="quantity" position="right" {...dataLabel} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
