import { useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { QuantityStepper } from '../../../ui/quantity-stepper'
import { toaster } from '../../../ui/toaster'
import { useToastClearance } from '../../../ui/use-toast-clearance'
import type { AddRoom } from '../add-limits'
import { addWithToast, type AddToCart } from '../add-to-cart-toast'
import { useDailyRoom } from '../hooks/use-daily-room'
import { useMediaQuery } from '../hooks/use-media-query'
import { stockLevel, stockWords } from '../product-media'

const NO_LIMIT: AddRoom = { oversize: null, fit: Infinity, limitText: null }

const note = css({ fontSize: 'sm', fontWeight: 'semibold' })

/** Below Panda's `md`: the buy bar is fixed at the foot of the screen, over the page's notes. */
const BAR_FIXED = '(max-width: 47.99em)'

/**
 * The product page's quantity, Add to Cart and stock line (SPEC.md §2), within today's daily
 * limit (add-limits.ts): the stepper goes no further than what fits beside the cart and today's
 * orders, a quantity past it is refused with the limit's message instead of "Added to cart!", and
 * a product whose one unit is above the limit says it is not sold to a consumer and cannot be
 * added at all.
 */
export function ProductBuyBox({ product, onAdd }: { product: ProductDoc; onAdd: AddToCart }) {
  const [quantity, setQuantity] = useState(1)
  const [refusal, setRefusal] = useState<string | null>(null)
  const checks = useDailyRoom()
  const barFixed = useMediaQuery(BAR_FIXED, false)
  const bar = useRef<HTMLDivElement>(null)
  useToastClearance(bar, barFixed)
  const level = stockLevel(product)
  const available = level !== 'out'
  const stock = product.stock ?? 0
  const stockMax = product.unlimited ? 999 : Math.max(1, Math.min(999, stock))
  const limit = checks ? checks.addRoom(product, checks.room) : NO_LIMIT
  const max = Math.max(1, Math.min(stockMax, limit.fit))
  // The cart may have grown since the quantity was chosen (this page, another tab).
  const shown = Math.min(quantity, max)
  const sellable = available && !limit.oversize

  const add = () => {
    const why = checks ? checks.addRefusal(product, shown, checks.room) : null
    setRefusal(why)
    if (!why) return void addWithToast(onAdd, product, shown)
    // Said by the alert below the bar; on a phone the fixed bar covers it, so a toast shows it
    // too (silent: the alert is what is announced).
    if (barFixed)
      toaster.create({
        type: 'error',
        title: 'Not added to your cart',
        description: why,
        meta: { silent: true },
      })
  }

  return (
    <>
      {/* Phones: a bar fixed at the bottom of the screen, so Add to Cart is there without
          scrolling past the gallery (html's scroll-padding-bottom keeps focus above it). */}
      <div
        ref={bar}
        data-buy-bar
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          flexWrap: { base: 'nowrap', md: 'wrap' },
          position: { base: 'fixed', md: 'static' },
          insetX: { base: '0', md: 'auto' },
          bottom: { base: '0', md: 'auto' },
          zIndex: { base: 'sticky', md: 'auto' },
          bg: { base: 'bg.surface', md: 'transparent' },
          boxShadow: { base: 'raised', md: 'none' },
          px: { base: '4', md: '0' },
          py: { base: '3', md: '0' },
          pb: { base: 'max(0.75rem, env(safe-area-inset-bottom))', md: '0' },
        })}
      >
        <QuantityStepper
          value={shown}
          onChange={(next) => {
            setQuantity(next)
            setRefusal(null)
          }}
          min={1}
          max={max}
          disabled={!sellable}
        />
        <button
          type="button"
          disabled={!sellable}
          onClick={add}
          className={cx(button({ size: 'lg' }), css({ flex: '1', minW: { base: '0', md: '48' } }))}
        >
          {!available ? 'Out of Stock' : limit.oversize ? 'Not sold to consumers' : 'Add to Cart'}
        </button>
      </div>
      <p
        role="status"
        className={cx(
          note,
          css({
            color: level === 'out' ? 'danger.fg' : level === 'low' ? 'deal.fg' : 'accent.fg',
          }),
        )}
      >
        {level === 'out'
          ? 'Out of stock'
          : level === 'low'
            ? `${stockWords(product)} in stock!`
            : 'In stock, ready for pickup or delivery'}
      </p>
      {limit.oversize ? (
        <p data-testid="not-for-consumers" className={cx(note, css({ color: 'danger.fg' }))}>
          {limit.oversize}
        </p>
      ) : refusal ? (
        <p role="alert" className={cx(note, css({ color: 'danger.fg' }))}>
          {refusal}
        </p>
      ) : (
        limit.limitText &&
        limit.fit < stockMax &&
        available && (
          <p className={cx(note, css({ color: 'fg.muted', fontWeight: 'normal' }))}>
            {limit.fit > 0
              ? `Today's limit is ${limit.limitText}: up to ${limit.fit} more fit beside your cart and today's orders.`
              : `Today's limit is ${limit.limitText}: no more of this fits beside your cart and today's orders.`}
          </p>
        )
      )}
    </>
  )
}
