/**
 * The tax report for the shop's CDTFA returns (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): what the server's
 * `admin_tax_report(p_from, p_to)` answers for a month or a quarter of the shop's calendar — the
 * sales handed over in the period with their gross receipts, the cannabis excise and sales tax
 * collected, the medical sales exempt from sales tax and the local tax passed on; the returns of
 * the period, deducted when refunded in full (docs/decisions/054-metrc-sales-export.md), and the taxes due after them — and its CSV
 * (through toCsv, docs/decisions/023-csv-cells.md). The figures are the server's sums of what each order was
 * charged, exact to the cent; this file only names, orders and writes them.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { AdminApiError } from './admin-api'
import { toCsv } from './admin-csv'

export type TaxReport = {
  from: string
  to: string
  orders: number
  grossReceipts: number
  cannabisSales: number
  otherSales: number
  deliveryFees: number
  exciseBase: number
  exciseTax: number
  salesTaxBase: number
  salesTax: number
  exemptMedicalSales: number
  exemptMedicalOrders: number
  localTax: number
  totalCollected: number
  /** Returns recorded in the period (docs/decisions/054-metrc-sales-export.md), and the refunds given. */
  returns: number
  refunds: number
  /** Returned goods refunded in full (CDTFA Regulation 1655(a)), deducted with their taxes. */
  returnedGoods: number
  returnedCannabis: number
  returnedExciseTax: number
  returnedSalesTax: number
  returnedLocalTax: number
  /** Returns whose refund fell short of the full price with taxes: nothing deducted. */
  returnsNotDeducted: number
  exciseTaxDue: number
  salesTaxDue: number
}

type Figure = Exclude<keyof TaxReport, 'from' | 'to'>

/** The report's lines, in the order of the returns' questions. */
export const TAX_REPORT_LINES: readonly { key: Figure; label: string; money: boolean }[] = [
  { key: 'orders', label: 'Sales handed over', money: false },
  { key: 'grossReceipts', label: 'Gross receipts (before taxes)', money: true },
  { key: 'cannabisSales', label: 'Cannabis sales', money: true },
  { key: 'otherSales', label: 'Non-cannabis sales', money: true },
  { key: 'deliveryFees', label: 'Delivery fees', money: true },
  { key: 'exciseBase', label: 'Gross receipts subject to cannabis excise tax', money: true },
  { key: 'exciseTax', label: 'Cannabis excise tax collected', money: true },
  { key: 'salesTaxBase', label: 'Gross receipts subject to sales tax', money: true },
  { key: 'salesTax', label: 'Sales tax collected', money: true },
  { key: 'exemptMedicalSales', label: 'Sales-tax-exempt medical sales (MMIC)', money: true },
  { key: 'exemptMedicalOrders', label: 'Sales-tax-exempt medical orders', money: false },
  { key: 'localTax', label: 'Local cannabis business tax collected', money: true },
  { key: 'totalCollected', label: 'Total collected', money: true },
  { key: 'returns', label: 'Returns recorded', money: false },
  { key: 'refunds', label: 'Refunds given', money: true },
  { key: 'returnedGoods', label: 'Returned goods refunded in full (deducted)', money: true },
  { key: 'returnedCannabis', label: 'of which cannabis', money: true },
  { key: 'returnedExciseTax', label: 'Cannabis excise tax refunded', money: true },
  { key: 'returnedSalesTax', label: 'Sales tax refunded', money: true },
  { key: 'returnedLocalTax', label: 'Local cannabis business tax refunded', money: true },
  { key: 'returnsNotDeducted', label: 'Returns not refunded in full (not deducted)', money: false },
  { key: 'exciseTaxDue', label: 'Cannabis excise tax due after returns', money: true },
  { key: 'salesTaxDue', label: 'Sales tax due after returns', money: true },
]

const figure = (value: unknown): number => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}

/** The server's answer as a report; a figure it left out reads 0. */
export function taxReportOf(data: unknown): TaxReport {
  if (!data || typeof data !== 'object') throw new Error('The server sent no tax report')
  const raw = data as Record<string, unknown>
  const day = (value: unknown) => (typeof value === 'string' ? value : '')
  const report = { from: day(raw.from), to: day(raw.to) } as TaxReport
  for (const { key } of TAX_REPORT_LINES) report[key] = figure(raw[key])
  return report
}

/** Needs the server: the report counts every order, not only those on this device. */
export async function fetchTaxReport(
  supabase: SupabaseClient,
  from: string,
  to: string,
): Promise<TaxReport> {
  const response = await supabase.rpc('admin_tax_report', { p_from: from, p_to: to })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  return taxReportOf(response.data)
}

export type ReportPeriod = { value: string; label: string; from: string; to: string }

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

const pad = (n: number) => String(n).padStart(2, '0')
/** The last day of a month (month 1-12). */
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** Months of the shop's calendar, the one of `today` (YYYY-MM-DD) first. */
export function monthPeriods(today: string, count = 24): ReportPeriod[] {
  let year = Number(today.slice(0, 4))
  let month = Number(today.slice(5, 7))
  const out: ReportPeriod[] = []
  for (let i = 0; i < count; i++) {
    out.push({
      value: `${year}-${pad(month)}`,
      label: `${MONTHS[month - 1]} ${year}`,
      from: `${year}-${pad(month)}-01`,
      to: `${year}-${pad(month)}-${pad(lastDay(year, month))}`,
    })
    month -= 1
    if (month === 0) {
      month = 12
      year -= 1
    }
  }
  return out
}

/** Calendar quarters (CDTFA's filing periods), the one of `today` first. */
export function quarterPeriods(today: string, count = 8): ReportPeriod[] {
  let year = Number(today.slice(0, 4))
  let quarter = Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1
  const out: ReportPeriod[] = []
  for (let i = 0; i < count; i++) {
    const first = (quarter - 1) * 3 + 1
    const last = first + 2
    out.push({
      value: `${year}-Q${quarter}`,
      label: `Q${quarter} ${year} (${MONTHS[first - 1]!.slice(0, 3)}–${MONTHS[last - 1]!.slice(0, 3)})`,
      from: `${year}-${pad(first)}-01`,
      to: `${year}-${pad(last)}-${pad(lastDay(year, last))}`,
    })
    quarter -= 1
    if (quarter === 0) {
      quarter = 4
      year -= 1
    }
  }
  return out
}

/** A line's figure as the report shows it and the CSV writes it: money with its two decimals. */
export function reportValue(report: TaxReport, key: Figure, money: boolean): string {
  return money ? report[key].toFixed(2) : String(report[key])
}

/** The report's CSV: the period, then one line per figure (label, value, the server's key). */
export function taxReportToCsv(report: TaxReport, period: string): string {
  return toCsv(
    ['metric', 'value', 'key'],
    [
      ['period', period, 'period'],
      ['from', report.from, 'from'],
      ['to', report.to, 'to'],
      ...TAX_REPORT_LINES.map(({ key, label, money }) => [
        label,
        reportValue(report, key, money),
        key,
      ]),
    ],
  )
}
