import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { labelledInMg, netWeightText, potencyOf, weightLabel } from '../potency'

function StatCard({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div
      className={css({
        bg: 'bg.subtle',
        borderRadius: 'md',
        px: '4',
        py: '3',
        borderWidth: '1px',
        borderColor: 'accent.subtle',
      })}
    >
      <p
        className={css({
          fontSize: 'xs',
          color: 'fg.muted',
          fontWeight: 'semibold',
          textTransform: 'uppercase',
          letterSpacing: 'wider',
        })}
      >
        {label}
      </p>
      <p className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'accent.fg' })}>{value}</p>
      {note && <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{note}</p>}
    </div>
  )
}

/**
 * The product's potency as California labels it (potency.ts): THC and CBD in percent for flower
 * and concentrates; for a product with milligrams, each per package with its dose per serving,
 * and the servings.
 */
export function PotencyStats({ product }: { product: ProductDoc }) {
  const mg = labelledInMg(product)
  const lines = potencyOf(product)
  return (
    <div
      data-testid="potency"
      className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: '3' })}
    >
      {lines.map((line) => (
        <StatCard
          key={line.label}
          label={line.label}
          value={line.amount}
          note={line.detail || undefined}
        />
      ))}
      {mg && product.servings != null && (
        <StatCard label="Servings" value={String(product.servings)} note="per package" />
      )}
    </div>
  )
}

function DetailRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'space-between',
        gap: '4',
        py: '2.5',
        borderBottomWidth: '1px',
        borderColor: 'border.default',
      })}
    >
      <dt className={css({ color: 'fg.muted' })}>{label}</dt>
      <dd className={css({ fontWeight: 'semibold', textAlign: 'right' })}>{value}</dd>
    </div>
  )
}

/**
 * "Details & Effects": the product's facts, its potency in its own terms (a weight only as the
 * package's net weight for a product labelled in milligrams), its terpenes and effects.
 */
export function ProductDetailsTab({ product }: { product: ProductDoc }) {
  const mg = labelledInMg(product)
  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
        gap: { base: '6', md: '12' },
      })}
    >
      <dl>
        <DetailRow label="Brand" value={product.brand?.name ?? 'N/A'} />
        <DetailRow label="Category" value={product.category?.name ?? 'Other'} />
        <DetailRow label="Type" value={product.productType?.name ?? 'N/A'} />
        {mg ? (
          <DetailRow label="Net wt." value={netWeightText(product.weightGrams) ?? 'N/A'} />
        ) : (
          <DetailRow label="Weight" value={weightLabel(product.weightGrams) ?? 'N/A'} />
        )}
        {potencyOf(product).map((line) => (
          <DetailRow
            key={line.label}
            label={line.label}
            value={[line.amount, line.detail].filter(Boolean).join(' ')}
          />
        ))}
        {mg && product.servings != null && (
          <DetailRow label="Servings per package" value={product.servings} />
        )}
        <DetailRow label="SKU" value={product.sku ?? 'N/A'} />
      </dl>
      <div>
        <h3 className={css({ fontWeight: 'bold', mb: '2' })}>Terpene profile</h3>
        {product.terpenes.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>No terpene profile listed.</p>
        ) : (
          <ul>
            {product.terpenes.map((terpene) => (
              <li
                key={terpene.name}
                className={css({
                  display: 'flex',
                  justifyContent: 'space-between',
                  py: '2',
                  borderBottomWidth: '1px',
                  borderColor: 'border.default',
                })}
              >
                <span>{terpene.name}</span>
                {terpene.percentage != null && (
                  <span className={css({ fontWeight: 'semibold' })}>
                    {terpene.percentage.toFixed(1)}%
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {product.effects.length > 0 && (
          <>
            <h3 className={css({ fontWeight: 'bold', mt: '5', mb: '2' })}>Effects</h3>
            <p>{product.effects.join(', ')}</p>
          </>
        )}
      </div>
    </div>
  )
}
