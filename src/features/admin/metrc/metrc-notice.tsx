import { css, cx } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { card } from '../components/admin-styles'
import { dayInWords } from './metrc-day'
import type { UnexportedDay } from './metrc-sales'

/**
 * The dashboard's reminder (docs/decisions/054-metrc-sales-export.md): completed days whose sales or returns have not been
 * exported to Metrc yet (California wants each day's sales in Metrc by the end of the day).
 */
export function MetrcNotice({
  days,
  onExport,
}: {
  days: UnexportedDay[]
  onExport: (day: string) => void
}) {
  if (days.length === 0) return null
  const first = days[0]!
  const more = days.length - 1
  return (
    <section
      role="status"
      aria-label="Metrc sales not exported"
      className={cx(
        card,
        css({ alignItems: 'center', display: 'flex', flexWrap: 'wrap', gap: '3', p: '4' }),
      )}
    >
      <p className={css({ flex: '1', minW: '60' })}>
        Metrc sales for {dayInWords(first.day)} have not been exported yet
        {more > 0 ? `, and ${more} more ${more === 1 ? 'day' : 'days'}` : ''}.
      </p>
      <Button size="sm" onClick={() => onExport(first.day)}>
        Export Metrc sales
      </Button>
    </section>
  )
}
