import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: '6',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
})
const row = css({ display: 'flex', justifyContent: 'space-between', py: '0.5' })

/** A titled card of money rows (cart, checkout): the labelled landmark and its figures. */
export function SummaryCard({
  title,
  landmark = 'section',
  children,
}: {
  title: string
  landmark?: 'section' | 'aside'
  children: ReactNode
}) {
  const Tag = landmark
  return (
    <Tag aria-label={title} className={card}>
      <h2 className={css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold' })}>
        {title}
      </h2>
      {children}
    </Tag>
  )
}

/** Label/value rows, the last one (the total) set apart. */
export function SummaryRows({
  rows,
  total,
}: {
  rows: { label: string; value: string }[]
  total: { label: string; value: string }
}) {
  return (
    <dl>
      {rows.map((r) => (
        <div key={r.label} className={row}>
          <dt className={css({ color: 'fg.muted' })}>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
      <div
        className={`${row} ${css({ borderTopWidth: '1px', borderColor: 'border.default', mt: '2', pt: '2', fontWeight: 'bold', fontSize: 'lg' })}`}
      >
        <dt>{total.label}</dt>
        <dd>{total.value}</dd>
      </div>
    </dl>
  )
}
