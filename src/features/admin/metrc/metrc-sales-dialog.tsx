import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { shopDate } from '../../../lib/compliance-rules'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { errorBox, muted } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import { useOnline } from '../hooks/use-online'
import { metrcGapsOf } from './metrc-csv'
import { dayInWords } from './metrc-day'
import { csvSalesReporter } from './sales-reporter'
import { useMetrcSalesDay } from './use-metrc-sales'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * Metrc sales (docs/decisions/054-metrc-sales-export.md): a day's completed sales and returns by Metrc package, downloaded as
 * the CSV staff import into Metrc (Sales → Receipts → Import). The download is recorded on the
 * server, so the dashboard stops reminding about that day.
 */
export function MetrcSalesDialog({
  open,
  onClose,
  supabase,
  initialDay,
  onExported,
}: {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  /** The day to show first (the notice's); else today. */
  initialDay?: string | null
  onExported: () => void
}) {
  const online = useOnline()
  const today = shopDate()
  const [day, setDay] = useState(initialDay ?? today)
  const [refresh, setRefresh] = useState(0)
  const [working, setWorking] = useState(false)
  const [failure, setFailure] = useState<string | undefined>()
  const [done, setDone] = useState<string | undefined>()
  useEffect(() => {
    if (open) {
      setDay(initialDay ?? shopDate())
      setDone(undefined)
      setFailure(undefined)
    }
  }, [open, initialDay])
  const valid = /^\d{4}-\d\d-\d\d$/.test(day) && day <= today
  const sales = useMetrcSalesDay(supabase, open && valid ? day : null, online, refresh)
  const shown = sales.data
  const gaps = useMemo(() => (shown ? metrcGapsOf(shown) : null), [shown])
  const counts = shown && {
    sales: shown.receipts.filter((r) => r.kind === 'sale').length,
    returns: shown.receipts.filter((r) => r.kind === 'return').length,
    lines: shown.receipts.reduce((n, r) => n + r.lines.length, 0),
  }

  const download = async () => {
    if (!supabase || !shown) return
    setWorking(true)
    setFailure(undefined)
    try {
      const report = await csvSalesReporter(supabase).report(shown)
      setDone(`Downloaded ${report.fileName}. Import it in Metrc: Sales → Receipts → Import.`)
      setRefresh((n) => n + 1)
      onExported()
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e))
    } finally {
      setWorking(false)
    }
  }

  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title="Metrc sales"
      description="A day's completed sales and returns by Metrc package, as the CSV Metrc imports."
    >
      <div className={css({ display: 'grid', gap: '4' })}>
        <div className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '3' })}>
          <TextField
            label="Day"
            type="date"
            max={today}
            value={day}
            onValueChange={setDay}
            error={day && !valid ? 'Choose today or an earlier day' : undefined}
            className={css({ w: '48' })}
          />
          <Button disabled={!shown || working || !online} onClick={() => void download()}>
            {working ? 'Preparing…' : 'Download CSV'}
          </Button>
        </div>
        {!online || !supabase ? (
          <p role="status" className={muted}>
            You are offline. Metrc sales need a connection: they are every sale on the server.
          </p>
        ) : sales.failure || failure ? (
          <p role="alert" className={errorBox}>
            {failure ?? sales.failure}
          </p>
        ) : !shown || !counts ? (
          <p role="status" className={muted}>
            {sales.loading ? 'Loading the day’s sales…' : ''}
          </p>
        ) : (
          <div className={css({ display: 'grid', gap: '2' })} data-testid="metrc-sales-summary">
            <p>
              {dayInWords(shown.day)}: {plural(counts.sales, 'sale', 'sales')},{' '}
              {plural(counts.returns, 'return', 'returns')},{' '}
              {plural(counts.lines, 'package line', 'package lines')}.
              {!shown.complete && ' The day is not over: export it again after closing.'}
            </p>
            <p className={muted}>
              {shown.lastExport
                ? `Last exported ${new Date(shown.lastExport.at).toLocaleString('en-US')}${shown.lastExport.by ? ` by ${shown.lastExport.by}` : ''} (${plural(shown.lastExport.receipts, 'receipt', 'receipts')}).`
                : 'Not exported yet.'}
            </p>
            {gaps && gaps.linesWithoutPackage > 0 && (
              <p className={cx(errorBox)}>
                {plural(gaps.linesWithoutPackage, 'line was', 'lines were')} sold before packages
                were recorded: enter their package in Metrc by hand.
              </p>
            )}
            {gaps && gaps.deliveriesWithoutCounty > 0 && (
              <p className={muted}>
                {plural(gaps.deliveriesWithoutCounty, 'delivery has', 'deliveries have')} no county
                in the address: Metrc asks for it (4 CCR §15049.3(c)); add it there after importing.
              </p>
            )}
            {done && (
              <p role="status" className={muted}>
                {done}
              </p>
            )}
          </div>
        )}
      </div>
    </PanelDialog>
  )
}
