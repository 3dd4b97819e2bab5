import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { SummaryCard, SummaryRows } from './summary-card'

export type ReceiptItem = { key: string; label: string; value: string }

/**
 * A titled card with what was bought, the money rows and the total, and short notes under the
 * total (what the total includes): checkout's summary, the confirmation and the order page.
 */
export function ReceiptCard({
  title,
  landmark,
  items,
  rows,
  total,
  notes = [],
  children,
}: {
  title: string
  landmark?: 'section' | 'aside'
  items: ReceiptItem[]
  rows: { label: string; value: string }[]
  total: { label: string; value: string }
  notes?: string[]
  children?: ReactNode
}) {
  return (
    <SummaryCard title={title} landmark={landmark}>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
        {items.map((item) => (
          <li
            key={item.key}
            className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}
          >
            <span>{item.label}</span>
            <span>{item.value}</span>
          </li>
        ))}
      </ul>
      <SummaryRows rows={rows} total={total} />
      {notes.length > 0 && (
        <div className={css({ display: 'grid', gap: '1', fontSize: 'xs', color: 'fg.muted' })}>
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
      {children}
    </SummaryCard>
  )
}
