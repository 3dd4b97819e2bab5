import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { shopDate } from '../../../lib/compliance-rules'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { SelectField } from '../../../ui/select'
import { downloadText } from '../admin-csv'
import { useOnline } from '../hooks/use-online'
import {
  fetchTaxReport,
  monthPeriods,
  quarterPeriods,
  TAX_REPORT_LINES,
  taxReportToCsv,
  type TaxReport,
} from '../tax-report'
import { card, errorBox, muted, sectionTitle } from './admin-styles'

const KINDS = [
  { value: 'quarter', label: 'Quarter' },
  { value: 'month', label: 'Month' },
] as const
type Kind = (typeof KINDS)[number]['value']

const figures = css({
  display: 'grid',
  fontSize: 'sm',
  gap: '1.5',
  gridTemplateColumns: '1fr auto',
  '& dt': { color: 'fg.muted' },
  '& dd': { fontVariantNumeric: 'tabular-nums', fontWeight: 'semibold', textAlign: 'right' },
})

/**
 * Analytics → Tax report: a month or quarter of the shop's calendar, as the server counts it
 * (`admin_tax_report`, tax-report.ts), and its CSV for the CDTFA returns. It needs a connection:
 * the report covers every sale, and a device may hold only some.
 */
export function TaxReportPanel({ supabase }: { supabase: SupabaseClient | null }) {
  const online = useOnline()
  const today = shopDate()
  const [kind, setKind] = useState<Kind>('quarter')
  const periods = useMemo(
    () => (kind === 'quarter' ? quarterPeriods(today) : monthPeriods(today)),
    [kind, today],
  )
  const [value, setValue] = useState(periods[0]!.value)
  const period = periods.find((p) => p.value === value) ?? periods[0]!
  const [report, setReport] = useState<TaxReport | null>(null)
  const [loading, setLoading] = useState(false)
  const [failure, setFailure] = useState<string | undefined>()

  useEffect(() => {
    if (!online || !supabase) return
    let current = true
    setLoading(true)
    setFailure(undefined)
    fetchTaxReport(supabase, period.from, period.to)
      .then((answer) => current && setReport(answer))
      .catch((e: unknown) => {
        if (!current) return
        setReport(null)
        setFailure(e instanceof Error ? e.message : String(e))
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [online, supabase, period.from, period.to])

  const shown = report && report.from === period.from && report.to === period.to ? report : null

  return (
    <section
      className={cx(card, css({ display: 'grid', gap: '4', gridColumn: '1 / -1', p: '5' }))}
      aria-labelledby="tax-report-title"
    >
      <div>
        <h3 id="tax-report-title" className={sectionTitle}>
          Tax report
        </h3>
        <p className={muted}>
          For the CDTFA cannabis retailer excise tax and sales tax returns: the sales handed over
          (picked up or delivered) in the period, by the shop&apos;s calendar (Pacific).
        </p>
      </div>
      <div className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '3' })}>
        <div className={css({ w: '60' })}>
          <SelectField
            label="Report for"
            options={KINDS}
            value={kind}
            onValueChange={(next) => {
              setKind(next)
              const first = next === 'quarter' ? quarterPeriods(today)[0] : monthPeriods(today)[0]
              setValue(first!.value)
            }}
          />
        </div>
        <div className={css({ w: '72' })}>
          <SelectField
            label="Period"
            options={periods}
            value={period.value}
            onValueChange={setValue}
          />
        </div>
        <Button
          disabled={!shown}
          onClick={() =>
            shown &&
            downloadText(`humo-tax-report-${period.value}.csv`, taxReportToCsv(shown, period.label))
          }
        >
          Download tax report CSV
        </Button>
      </div>
      {!online || !supabase ? (
        <p role="status" className={muted}>
          You are offline. The tax report needs a connection: it counts every sale on the server.
        </p>
      ) : failure ? (
        <p role="alert" className={errorBox}>
          {failure}
        </p>
      ) : !shown ? (
        <p role="status" className={muted}>
          {loading ? 'Loading the tax report…' : ''}
        </p>
      ) : (
        <dl className={figures} aria-label={`Tax report, ${period.label}`} aria-busy={loading}>
          {TAX_REPORT_LINES.map(({ key, label, money }) => (
            <div key={key} className={css({ display: 'contents' })}>
              <dt>{label}</dt>
              <dd data-testid={`tax-report-${key}`}>
                {money ? formatMoney(shown[key]) : shown[key]}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
