import { useWindowVirtualizer } from '@tanstack/react-virtual'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

/**
 * The rows of a long menu, windowed: only the rows near the viewport are in the DOM, so a
 * 10,000-product menu scrolls like a 20-product one. Rows are measured after render, so cards of
 * any height fit. Loaded by ProductGrid only for menus that long.
 */
export function VirtualProductRows({
  rows,
  columns,
  estimate,
  offset,
  renderRow,
}: {
  rows: number
  columns: number
  /** Expected row height in px, before it is measured. */
  estimate: number
  /** The list's distance from the top of the page. */
  offset: number
  renderRow: (index: number) => ReactNode
}) {
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => estimate,
    overscan: 3,
    scrollMargin: offset,
  })
  return (
    <div
      className={css({ position: 'relative', w: 'full' })}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={`${row.key}-${columns}`}
          data-index={row.index}
          ref={virtualizer.measureElement}
          role="presentation"
          className={css({ position: 'absolute', top: '0', left: '0', w: 'full' })}
          style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
        >
          {renderRow(row.index)}
        </div>
      ))}
    </div>
  )
}
