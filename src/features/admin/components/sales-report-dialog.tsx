import { useMemo, useState } from 'react'
import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney, roundMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { SelectField } from '../../../ui/select'
import { downloadText, salesReportToCsv, today } from '../admin-csv'
import { ordersByStatusWords, ordersInPeriod, periodTotals, topProducts } from '../order-stats'
import { sumTaxesByKind } from '../order-taxes'
import { muted, sectionTitle, table } from './admin-styles'

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'all', label: 'All time' },
] as const

type Period = (typeof PERIODS)[number]['value']

function salesReport(orders: AdminOrderDoc[], period: Period) {
  const inPeriod = ordersInPeriod(orders, period === 'all' ? null : Number(period))
  const sales = inPeriod.filter((o) => o.status !== 'cancelled')
  return {
    orders: inPeriod,
    totals: periodTotals(inPeriod),
    tax: roundMoney(sales.reduce((s, o) => s + o.tax, 0)),
    taxes: sumTaxesByKind(sales),
    shipping: roundMoney(sales.reduce((s, o) => s + o.shipping, 0)),
    discount: roundMoney(sales.reduce((s, o) => s + o.discount, 0)),
    byStatus: ordersByStatusWords(inPeriod),
    top: topProducts(inPeriod, 10),
  }
}

/** Generate Sales Report: a period's totals, by status and top products, and its CSV. */
export function SalesReportDialog({
  open,
  onClose,
  orders,
  ordersNote,
  loadOrders,
}: {
  open: boolean
  onClose: () => void
  orders: AdminOrderDoc[]
  /** Said while the device's orders are not the server's yet (loading, offline). */
  ordersNote?: string | null
  /**
   * Every order for the CSV, once this page's first pull is done (or null, having said why):
   * a file made from what the device held right after sign-in could be empty (issue 25).
   */
  loadOrders?: () => Promise<AdminOrderDoc[] | null>
}) {
  const [period, setPeriod] = useState<Period>('30')
  const [preparing, setPreparing] = useState(false)
  const report = useMemo(() => salesReport(orders, period), [orders, period])
  const label = PERIODS.find((p) => p.value === period)!.label

  const download = async () => {
    setPreparing(true)
    try {
      const all = loadOrders ? await loadOrders() : orders
      if (!all) return
      downloadText(
        `humo-sales-report-${period}-${today()}.csv`,
        salesReportToCsv({ ...salesReport(all, period), period: label }),
      )
    } finally {
      setPreparing(false)
    }
  }

  return (
    <PanelDialog open={open} onOpenChange={(o) => !o && onClose()} size="lg" title="Sales Report">
      <div className={css({ display: 'grid', gap: '4' })}>
        <div
          className={css({
            alignItems: 'end',
            display: 'flex',
            gap: '3',
            justifyContent: 'space-between',
          })}
        >
          <div className={css({ w: '56' })}>
            <SelectField
              label="Period"
              options={PERIODS}
              value={period}
              onValueChange={setPeriod}
            />
          </div>
          <Button onClick={() => void download()} disabled={preparing}>
            {preparing ? 'Loading orders…' : 'Download CSV'}
          </Button>
        </div>
        {ordersNote && (
          <p role="status" className={muted}>
            {ordersNote}
          </p>
        )}
        <dl
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fit, minmax(130px, 1fr))',
            '& dt': { color: 'fg.muted', fontSize: 'xs' },
            '& dd': { fontSize: 'xl', fontWeight: 'bold' },
          })}
        >
          <div>
            <dt>Orders</dt>
            <dd>{report.totals.orders}</dd>
          </div>
          <div>
            <dt>Revenue</dt>
            <dd>{formatMoney(report.totals.revenue)}</dd>
          </div>
          <div>
            <dt>Avg order value</dt>
            <dd>{formatMoney(report.totals.averageOrderValue)}</dd>
          </div>
          <div>
            <dt>Cannabis excise tax</dt>
            <dd>{formatMoney(report.taxes.excise)}</dd>
          </div>
          <div>
            <dt>Sales tax</dt>
            <dd>{formatMoney(report.taxes.sales)}</dd>
          </div>
          <div>
            <dt>Local cannabis tax</dt>
            <dd>{formatMoney(report.taxes.local)}</dd>
          </div>
          <div>
            <dt>Delivery fees</dt>
            <dd>{formatMoney(report.shipping)}</dd>
          </div>
        </dl>
        <p className={muted}>{report.byStatus.map((s) => `${s.label}: ${s.count}`).join(' · ')}</p>
        <p className={muted}>
          Taxes of the orders not cancelled, by the day they were placed. For the CDTFA returns, use
          the tax report in Analytics: it counts the sales handed over in a month or quarter.
        </p>
        <section>
          <h3 className={sectionTitle}>Top products</h3>
          {report.top.length === 0 ? (
            <p className={muted}>No sales in this period.</p>
          ) : (
            <table className={table}>
              <thead>
                <tr>
                  <th>Product</th>
                  <th>Units</th>
                  <th>Revenue</th>
                </tr>
              </thead>
              <tbody>
                {report.top.map((t) => (
                  <tr key={t.name}>
                    <td>{t.name}</td>
                    <td>{t.quantity}</td>
                    <td>{formatMoney(t.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </PanelDialog>
  )
}
