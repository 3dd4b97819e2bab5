import { useNavigate } from '@tanstack/react-router'
import {
  lazy,
  Suspense,
  useDeferredValue,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
} from 'react'
import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { useProductSearch } from '../../../data/search/use-product-search'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { SearchIcon } from '../../../ui/icons'

// The dropdown's code comes with the first focus, as the search index does: not with every page.
const loadResults = importWhenReachable(() => import('./header-search-results'))
const HeaderSearchResults = lazy(() =>
  loadResults().then((module) => ({ default: module.HeaderSearchResults })),
)

/**
 * The header search box: searches the catalogue on the device as the shopper types (name, brand,
 * category, strain type, effects, terpenes; prefixes and typos too) and lists the best matches in
 * a dropdown (a combobox). Enter on the text opens the full menu search. The search index loads
 * on the first focus, not with the page (docs/decisions/038-product-search.md).
 */
export function HeaderSearch() {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [wanted, setWanted] = useState(false)
  const index = useProductSearch(wanted)
  const query = useDeferredValue(text.trim())
  const hits = useMemo(() => index?.search(query, { limit: 6 }) ?? [], [index, query])
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
        onFocus={() => {
          setOpen(true)
          setWanted(true)
          void loadResults()
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
        className={`${input()} ${css({ pl: '10', borderRadius: 'full', bg: 'bg.canvas' })}`}
      />
      {showList && (
        <Suspense fallback={null}>
          <HeaderSearchResults
            id={listId}
            hits={hits}
            active={active}
            empty={index ? `No products match “${text.trim()}”` : 'Searching…'}
            onPick={go}
          />
        </Suspense>
      )}
    </div>
  )
}
