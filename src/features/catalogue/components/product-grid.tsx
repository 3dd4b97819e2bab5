import { startTransition, useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { serverRender } from '../../../lib/server-render'
import { afterStartUp, startingUp } from '../../../lib/splash-hold'
import type { AddToCart } from '../add-to-cart-toast'
import { cardFacts, cardFactsLines } from '../potency'
import { ProductCard } from './product-card'
import type * as Virtual from './virtual-product-rows'

const GAP = 16
/** A line of a card's extra-small facts text. */
const FACT_LINE_PX = 18
/**
 * From this many products on, rows are windowed (@tanstack/react-virtual, fetched then); a
 * shorter menu is rendered whole, which a phone lays out in a few milliseconds.
 */
export const WINDOWED_FROM = 120

let virtual: typeof Virtual | undefined
const loadVirtual = importWhenReachable(() =>
  import('./virtual-product-rows').then((m) => (virtual = m)),
)

/** Columns for the width the grid has: cards at least ~220 px wide, two on phones. */
function columnsFor(width: number, layout: 'grid' | 'list'): number {
  if (layout === 'list') return 1
  if (width < 560) return 2
  return Math.max(2, Math.min(4, Math.floor((width + GAP) / (220 + GAP))))
}

const rowClass = css({ display: 'grid', pb: '4' })
// Rows off screen are not laid out or painted until scrolled near (their height is estimated,
// then remembered), which keeps a long menu's first frame to the rows a shopper can see.
const offscreenRow = css({ contentVisibility: 'auto' })

/**
 * The grid's width before it is measured. A wrong guess renders the first frame with the wrong
 * number of columns and then every row again, so it is the last width measured, or on a phone
 * (no filter sidebar) the screen's width less the page's padding.
 */
let lastWidth: number | undefined
let gridShown = false
const initialWidth = () => lastWidth ?? (viewport.width < 768 ? viewport.width - 32 : 1024)

/**
 * The window's size, read once and then on resize: reading innerWidth/innerHeight while the page
 * has unapplied changes (as during a render, right after a commit) makes the browser recompute
 * the style and layout of the whole page there and then, inside the render's task.
 */
let viewport = serverRender()
  ? { width: 1024, height: 800 }
  : { width: window.innerWidth, height: window.innerHeight }
if (!serverRender())
  window.addEventListener('resize', () => {
    viewport = { width: window.innerWidth, height: window.innerHeight }
  })

/**
 * A server render knows no width: one CSS grid whose columns follow columnsFor (two below 560 px,
 * cards of at least 220 px, four at most).
 */
const SERVER_FIRST_CARDS = 4
/**
 * Cards the copy draws: a desktop's first three rows, a phone's first six. The rest are empty
 * slots of a card's size, so the copy keeps the page's height and scroll, while the HTML that
 * every start must parse and style before the app takes over is a third of the whole list's.
 */
const SERVER_DRAWN_CARDS = 12
const offscreenCard = css({ contentVisibility: 'auto', containIntrinsicSize: 'auto 26rem' })
const serverGrid = css({
  display: 'grid',
  gridTemplateColumns:
    'repeat(auto-fill, minmax(max(calc((100% - 48px) / 4), min(220px, calc((100% - 16px) / 2))), 1fr))',
  gap: '4',
})

/**
 * The menu's product list, in rows of as many cards as fit. A long menu is windowed (see
 * WINDOWED_FROM); until the windowing code has arrived it shows its first rows.
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
  const [width, setWidth] = useState(initialWidth)
  const [offset, setOffset] = useState(0)
  const long = products.length >= WINDOWED_FROM
  const [windowing, setWindowing] = useState(() => virtual)
  // The first grid of a page load (under the start-up splash, or when a first visit's catalogue
  // arrives) renders only the rows that fit on the screen, so the page shows without one long
  // task; the rest follow in a transition once the splash has left (not while it counts, which
  // would delay its exit). Later menus render whole at once, so scroll restoration finds them.
  const [whole, setWhole] = useState(() => gridShown && !startingUp())
  useEffect(() => {
    gridShown = true
    if (whole) return
    return afterStartUp(() => startTransition(() => setWhole(true)))
  }, [whole])

  // Measured when the browser lays the grid out anyway (ResizeObserver), not by forcing a layout
  // of the whole page in the commit; the first width is a good guess (initialWidth).
  useEffect(() => {
    const element = listRef.current
    if (!element) return
    const observer = new ResizeObserver(() => {
      lastWidth = element.clientWidth
      setWidth(element.clientWidth)
      setOffset(element.getBoundingClientRect().top + window.scrollY)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    // Never rejects: offline before the service worker holds it, the rows come with the connection.
    if (long && !windowing) void loadVirtual().then(setWindowing)
  }, [long, windowing])

  const columns = columnsFor(width, layout)
  const rows = Math.ceil(products.length / columns)
  const cardWidth = (width - GAP * (columns - 1)) / columns
  const rowEstimate = (layout === 'list' ? 200 : cardWidth + 230) + GAP
  // A card's facts (an edible's "THC 100 mg per package · 10 mg per serving") may take more than
  // the one line the estimate counts: a row guessed too short would overlap the next until laid
  // out (and be found so by an audit of the whole page).
  const rowHeight = (index: number) => {
    if (layout === 'list') return rowEstimate
    const lines = products
      .slice(index * columns, index * columns + columns)
      .map((product) => cardFactsLines(cardFacts(product), cardWidth - 32))
    return rowEstimate + (Math.max(1, ...lines) - 1) * FACT_LINE_PX
  }
  if (serverRender())
    return (
      <div role="list" aria-label="Products" className={layout === 'list' ? undefined : serverGrid}>
        {products.map((product, i) =>
          i < SERVER_DRAWN_CARDS ? (
            <div
              key={product.id}
              role="listitem"
              aria-posinset={i + 1}
              aria-setsize={products.length}
              // Past a phone's first rows: laid out when scrolled near, as the app's own rows are.
              className={i >= SERVER_FIRST_CARDS ? offscreenCard : undefined}
            >
              <ProductCard
                product={product}
                onAdd={onAdd}
                layout={layout}
                priority={i < SERVER_FIRST_CARDS}
              />
            </div>
          ) : (
            <div key={product.id} className={offscreenCard} />
          ),
        )}
      </div>
    )
  const firstRows = Math.ceil(viewport.height / rowEstimate) + 1

  const renderRow = (index: number) => (
    <div
      className={rowClass}
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, columnGap: GAP }}
    >
      {products.slice(index * columns, index * columns + columns).map((product, i) => (
        <div
          key={product.id}
          role="listitem"
          aria-posinset={index * columns + i + 1}
          aria-setsize={products.length}
        >
          <ProductCard product={product} onAdd={onAdd} layout={layout} priority={index === 0} />
        </div>
      ))}
    </div>
  )

  const shownRows = Math.min(
    rows,
    whole ? (long ? Math.ceil(WINDOWED_FROM / columns) : rows) : firstRows,
  )
  return (
    <div ref={listRef} role="list" aria-label="Products" className={css({ w: 'full' })}>
      {long && windowing ? (
        <windowing.VirtualProductRows
          rows={rows}
          columns={columns}
          estimate={rowEstimate}
          offset={offset}
          renderRow={renderRow}
        />
      ) : (
        Array.from({ length: shownRows }, (_, index) => (
          <div
            key={`${index}-${columns}`}
            role="presentation"
            className={index >= firstRows ? offscreenRow : undefined}
            style={
              index >= firstRows
                ? { containIntrinsicSize: `auto ${rowHeight(index)}px` }
                : undefined
            }
          >
            {renderRow(index)}
          </div>
        ))
      )}
    </div>
  )
}
