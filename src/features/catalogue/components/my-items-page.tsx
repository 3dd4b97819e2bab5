import { Link } from '@tanstack/react-router'
import { useMemo } from 'react'
import { map } from 'rxjs'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { liveResults } from '../../../data/live-query'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { HeartIcon } from '../../../ui/icons'
import type { AddToCart } from '../add-to-cart-toast'
import { useWishlistIds } from '../hooks/use-wishlist'
import { ProductCard } from './product-card'

const title = css({
  fontFamily: 'heading',
  fontSize: { base: '3xl', md: '4xl' },
  fontWeight: 'bold',
})

/** The saved products on the device's catalogue, in the order they were hearted. */
function useSavedProducts(ids: readonly string[]): ProductDoc[] | undefined {
  const { db } = useHumoData()
  const products$ = useMemo(() => {
    const query = db.products.find({ selector: { id: { $in: [...ids] } } })
    return liveResults(query).pipe(
      map((docs) => {
        const byId = new Map(docs.map((d) => [d.id, d.toJSON() as ProductDoc]))
        return ids.flatMap((id) => byId.get(id) ?? [])
      }),
    )
  }, [db, ids])
  return useObservable<ProductDoc[] | undefined>(products$, undefined)
}

/**
 * /my-items: the products saved with a card's heart. The hearts live on the device and the
 * products come from its synced catalogue, so the page works offline; a saved product the shop
 * no longer sells is left out and counted.
 */
export function MyItemsPage({ onAdd }: { onAdd: AddToCart }) {
  const ids = useWishlistIds()
  const products = useSavedProducts(ids)
  const missing = products ? ids.length - products.length : 0
  return (
    <main className={css({ display: 'grid', gap: '6' })}>
      <h1 className={title}>My Items</h1>
      {products === undefined ? null : ids.length === 0 ? (
        <div
          className={css({
            bg: 'bg.surface',
            borderRadius: 'lg',
            boxShadow: 'card',
            p: '8',
            textAlign: 'center',
            display: 'grid',
            gap: '3',
            justifyItems: 'center',
          })}
        >
          <HeartIcon size={32} />
          <p className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>No saved items yet</p>
          <p className={css({ color: 'fg.muted', maxW: 'md' })}>
            Tap the heart on a product to save it here. Saved items stay on this device.
          </p>
          <Link to="/menu" className={button()}>
            Browse the menu
          </Link>
        </div>
      ) : (
        products.length > 0 && (
          <>
            <p className={css({ color: 'fg.muted' })}>
              {products.length === 1 ? '1 saved item' : `${products.length} saved items`}, kept on
              this device.
            </p>
            <ul
              className={css({
                display: 'grid',
                gap: '4',
                gridTemplateColumns: {
                  base: 'repeat(2, minmax(0, 1fr))',
                  md: 'repeat(3, minmax(0, 1fr))',
                  lg: 'repeat(4, minmax(0, 1fr))',
                },
              })}
            >
              {products.map((product) => (
                <li key={product.id} className={css({ display: 'grid' })}>
                  <ProductCard product={product} onAdd={onAdd} />
                </li>
              ))}
            </ul>
          </>
        )
      )}
      {missing > 0 && (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          {missing === 1
            ? '1 saved item is no longer available.'
            : `${missing} saved items are no longer available.`}
        </p>
      )}
    </main>
  )
}
