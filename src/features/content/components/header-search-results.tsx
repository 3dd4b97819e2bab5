import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { formatMoney } from '../../../lib/money'

/**
 * The header search's dropdown (a listbox): the best matches with brand, category and price, or
 * why there are none. Its own chunk, fetched on the search box's first focus (header-search.tsx).
 */
export function HeaderSearchResults({
  id,
  hits,
  active,
  empty,
  onPick,
}: {
  id: string
  hits: readonly ProductDoc[]
  active: number
  /** Shown when there is no match: no match, or the index is still loading. */
  empty: string
  onPick: (slug: string) => void
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label="Search results"
      className={css({
        position: 'absolute',
        top: 'calc(100% + 6px)',
        left: '0',
        right: '0',
        bg: 'bg.surface',
        borderRadius: 'md',
        borderWidth: '1px',
        borderColor: 'border.default',
        boxShadow: 'raised',
        zIndex: 'dropdown',
        py: '1',
        animation: 'slideDown 0.15s ease-out',
      })}
    >
      {hits.length === 0 && (
        <li className={css({ px: '4', py: '3', fontSize: 'sm', color: 'fg.muted' })}>{empty}</li>
      )}
      {hits.map((hit, index) => (
        <li
          key={hit.id}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(hit.slug)}
          className={css({
            display: 'flex',
            justifyContent: 'space-between',
            gap: '3',
            px: '4',
            py: '2.5',
            cursor: 'pointer',
            '&[aria-selected=true], &:hover': { bg: 'bg.muted' },
          })}
        >
          <span>
            <span className={css({ display: 'block', fontWeight: 'semibold', fontSize: 'sm' })}>
              {hit.name}
            </span>
            <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
              {[hit.brand?.name, hit.category?.name].filter(Boolean).join(' · ')}
            </span>
          </span>
          <span className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'accent.fg' })}>
            {formatMoney(hit.price)}
          </span>
        </li>
      ))}
    </ul>
  )
}
