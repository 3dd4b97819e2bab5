import { useNavigate } from '@tanstack/react-router'
import { useId, useState, type KeyboardEvent } from 'react'
import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { formatMoney } from '../../../lib/money'
import { SearchIcon } from '../../../ui/icons'
import { useProductSearch } from '../hooks/use-product-search'

/**
 * The header search box: filters the local catalogue as the shopper types and lists matches in
 * a dropdown (a combobox). Enter on the text opens the full menu search.
 */
export function HeaderSearch() {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const hits = useProductSearch(text)
  const navigate = useNavigate()
  const listId = useId()
  const showList = open && text.trim().length > 0

  const go = (slug: string) => {
    setOpen(false)
    setText('')
    void navigate({ to: '/product/$slug', params: { slug } })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      setOpen(true)
      setActive((i) => Math.min(hits.length - 1, i + 1))
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      setActive((i) => Math.max(-1, i - 1))
    } else if (event.key === 'Escape') {
      setOpen(false)
      setActive(-1)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      const hit = hits[active]
      if (hit) go(hit.slug)
      else if (text.trim()) {
        setOpen(false)
        void navigate({ to: '/menu', search: { q: text.trim() } })
      }
    }
  }

  return (
    <div className={css({ position: 'relative', flex: '1', maxW: 'xl' })}>
      <SearchIcon
        size={18}
        className={css({
          position: 'absolute',
          left: '3.5',
          top: '50%',
          transform: 'translateY(-50%)',
          color: 'fg.subtle',
          pointerEvents: 'none',
        })}
      />
      <input
        type="search"
        role="combobox"
        aria-label="Search products"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="Search flower, edibles, brands…"
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
        className={`${input()} ${css({ pl: '10', borderRadius: 'full', bg: 'bg.canvas' })}`}
      />
      {showList && (
        <ul
          id={listId}
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
            <li className={css({ px: '4', py: '3', fontSize: 'sm', color: 'fg.muted' })}>
              No products match “{text.trim()}”
            </li>
          )}
          {hits.map((hit, index) => (
            <li
              key={hit.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(hit.slug)}
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
                  {[hit.brandName, hit.categoryName].filter(Boolean).join(' · ')}
                </span>
              </span>
              <span className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'accent.fg' })}>
                {formatMoney(hit.price)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
