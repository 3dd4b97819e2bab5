import { useWindowVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import type { AddToCart } from '../add-to-cart-toast'
import { ProductCard } from './product-card'

const GAP = 16

/** Columns for the width the grid has: cards at least ~220 px wide, two on phones. */
function columnsFor(width: number, layout: 'grid' | 'list'): number {
  if (layout === 'list') return 1
  if (width < 560) return 2
  return Math.max(2, Math.min(4, Math.floor((width + GAP) / (220 + GAP))))
}

/**
 * The menu's product list, windowed: only the rows near the viewport are in the DOM, so a
 * 10,000-product menu scrolls like a 20-product one. Rows are measured after render, so cards
 * of any height fit.
 */
export function ProductGrid({
  products,
  onAdd,
  layout,
}: {
  products: readonly ProductDoc[]
  onAdd: AddToCart
  layout: 'grid' | 'list'
}) {
  const listRef = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(1024)
  const [offset, setOffset] = useState(0)

  useLayoutEffect(() => {
    const element = listRef.current
    if (!element) return
    const measure = () => {
      setWidth(element.clientWidth)
      setOffset(element.getBoundingClientRect().top + window.scrollY)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const columns = columnsFor(width, layout)
  const rows = Math.ceil(products.length / columns)
  const cardWidth = (width - GAP * (columns - 1)) / columns
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => (layout === 'list' ? 200 : cardWidth + 230) + GAP,
    overscan: 3,
    scrollMargin: offset,
  })

  return (
    <div
      ref={listRef}
      role="list"
      aria-label="Products"
      aria-rowcount={rows}
      className={css({ position: 'relative', w: 'full' })}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={`${row.key}-${columns}`}
          data-index={row.index}
          ref={virtualizer.measureElement}
          role="presentation"
          className={css({
            position: 'absolute',
            top: '0',
            left: '0',
            w: 'full',
            display: 'grid',
            pb: '4',
          })}
          style={{
            transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            columnGap: GAP,
          }}
        >
          {products.slice(row.index * columns, row.index * columns + columns).map((product, i) => (
            <div
              key={product.id}
              role="listitem"
              aria-posinset={row.index * columns + i + 1}
              aria-setsize={products.length}
            >
              <ProductCard
                product={product}
                onAdd={onAdd}
                layout={layout}
                priority={row.index === 0}
              />
            </div>
          ))}
        </div>
      ))}
    </div>
  )
}
