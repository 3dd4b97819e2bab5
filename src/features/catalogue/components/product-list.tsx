import { css } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { useMediaUrl } from '../hooks/use-media-url'
import { useProducts } from '../hooks/use-products'

function ProductTile({ product }: { product: ProductDoc }) {
  const primary =
    product.media.find((m) => m.type === 'image' && m.isPrimary) ??
    product.media.find((m) => m.type === 'image')
  const src = useMediaUrl(primary?.path)
  return (
    <li
      className={css({
        bg: 'bg.surface',
        borderRadius: 'lg',
        boxShadow: 'card',
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
      })}
    >
      <img
        src={src}
        alt={product.name}
        loading="lazy"
        width={400}
        height={400}
        className={css({ aspectRatio: 'square', objectFit: 'cover', w: 'full', bg: 'bg.muted' })}
      />
      <div className={css({ p: '4', display: 'flex', flexDirection: 'column', gap: '1' })}>
        <span
          className={css({
            fontSize: 'xs',
            color: 'fg.subtle',
            textTransform: 'uppercase',
            letterSpacing: 'wider',
          })}
        >
          {product.brand?.name ?? product.category?.name ?? ''}
        </span>
        <h2 className={css({ fontWeight: 'semibold', fontSize: 'md' })}>{product.name}</h2>
        <span className={css({ color: 'accent.fg', fontWeight: 'bold' })}>
          {formatMoney(product.price)}
        </span>
      </div>
    </li>
  )
}

/** The plain catalogue listing of the walking skeleton; the storefront issue builds the real menu. */
export function ProductList() {
  const products = useProducts()
  if (products === null) return <p>Loading…</p>
  if (products.length === 0)
    return <p className={css({ color: 'fg.muted' })}>No products found matching your criteria</p>
  return (
    <>
      <p className={css({ color: 'fg.muted', mb: '4' })}>
        Showing {products.length} of {products.length} products
      </p>
      <ul
        aria-label="Products"
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
        {products.map((p) => (
          <ProductTile key={p.id} product={p} />
        ))}
      </ul>
    </>
  )
}
