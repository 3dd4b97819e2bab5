import { useEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import { formatMoney } from '../../../lib/money'
import { Checkbox } from '../../../ui/checkbox'
import { SearchIcon } from '../../../ui/icons'
import { RangeSlider } from '../../../ui/range-slider'
import { CBD_RANGE, THC_RANGE, type MenuSearch } from '../catalogue.validation'
import { withValue, type Facet, type Facets } from '../menu-filter'

export type FilterPatch = Partial<MenuSearch>

function Section({ title, children }: { title?: string; children: ReactNode }) {
  const frame = css({ borderTopWidth: '1px', borderColor: 'border.default', pt: '4', mt: '4' })
  if (!title) return <div className={frame}>{children}</div>
  return (
    <fieldset className={frame}>
      <legend
        className={css({ fontSize: 'sm', fontWeight: 'bold', mb: '2', float: 'left', w: 'full' })}
      >
        {title}
      </legend>
      <div className={css({ clear: 'both' })}>{children}</div>
    </fieldset>
  )
}

function CheckList({
  title,
  facets,
  selected,
  onChange,
}: {
  title: string
  facets: Facet[]
  selected: readonly string[] | undefined
  onChange: (next: string[] | undefined) => void
}) {
  const [expanded, setExpanded] = useState(false)
  if (facets.length === 0) return null
  const chosen = new Set(selected ?? [])
  const shown = expanded ? facets : facets.slice(0, 8)
  return (
    <Section title={title}>
      <div className={css({ display: 'grid' })}>
        {shown.map((facet) => (
          <Checkbox
            key={facet.value}
            label={
              <>
                {facet.value} <span className={css({ color: 'fg.subtle' })}>({facet.count})</span>
              </>
            }
            checked={chosen.has(facet.value)}
            onCheckedChange={(checked) => {
              onChange(withValue(selected, facet.value, checked))
            }}
          />
        ))}
      </div>
      {facets.length > 8 && (
        <button
          type="button"
          onClick={() => setExpanded((e) => !e)}
          className={css({
            mt: '1',
            fontSize: 'sm',
            color: 'accent.fg',
            fontWeight: 'semibold',
            cursor: 'pointer',
          })}
        >
          {expanded ? 'Show less' : `Show all ${facets.length}`}
        </button>
      )}
    </Section>
  )
}

/** The search box commits to the URL shortly after typing stops, not on every key. */
function SearchField({
  value,
  onCommit,
}: {
  value: string | undefined
  onCommit: (q: string | undefined) => void
}) {
  const [text, setText] = useState(value ?? '')
  useEffect(() => setText(value ?? ''), [value])
  useEffect(() => {
    if (text === (value ?? '')) return
    const timer = setTimeout(() => onCommit(text.trim() || undefined), 250)
    return () => clearTimeout(timer)
  }, [text, value, onCommit])
  return (
    <label className={css({ display: 'block', position: 'relative' })}>
      <span className={css({ srOnly: true })}>Search this menu</span>
      <SearchIcon
        size={16}
        className={css({
          position: 'absolute',
          left: '3',
          top: '50%',
          transform: 'translateY(-50%)',
          color: 'fg.subtle',
        })}
      />
      <input
        type="search"
        value={text}
        placeholder="Search by name, brand, effect…"
        onChange={(event) => setText(event.target.value)}
        className={`${input()} ${css({ pl: '9' })}`}
      />
    </label>
  )
}

/** The slider's thumbs: the URL's range, inside the slider's ends (an old link may say $5,000). */
const range = (
  min: number | undefined,
  max: number | undefined,
  bounds: { min: number; max: number },
): [number, number] => {
  const clamp = (value: number) => Math.min(bounds.max, Math.max(bounds.min, value))
  const low = clamp(min ?? bounds.min)
  return [low, Math.max(low, clamp(max ?? bounds.max))]
}

/** A range at its bounds is "not set", so the URL stays short. */
function toPatch(
  [low, high]: [number, number],
  bounds: { min: number; max: number },
  keys: [keyof MenuSearch, keyof MenuSearch],
): FilterPatch {
  return {
    [keys[0]]: low <= bounds.min ? undefined : low,
    [keys[1]]: high >= bounds.max ? undefined : high,
  }
}

/**
 * The menu's filters (SPEC.md §9): search, categories (Shop All only), types, brands, effects
 * (flower, concentrates and edibles), price, THC and CBD. Each change goes to the URL.
 */
export function MenuFilters({
  search,
  facets,
  prices,
  count,
  showCategories,
  showEffects,
  onChange,
  onClear,
}: {
  search: MenuSearch
  facets: Facets
  /** The price slider's ends: the menu's own cheapest and dearest (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md). */
  prices: { min: number; max: number; step: number }
  /** How many filters are on: the "(n)" of the phone's Filters button, beside the title. */
  count: number
  showCategories: boolean
  showEffects: boolean
  onChange: (patch: FilterPatch) => void
  onClear: () => void
}) {
  return (
    <div>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: '3',
          mb: '3',
          // In the drawer the close × sits top right: "Clear all" stays clear of it.
          '[role=dialog] &': { pr: '12', minH: '11' },
        })}
      >
        <h2 className={css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold' })}>
          Filters{count > 0 && ` (${count})`}
        </h2>
        <button
          type="button"
          onClick={onClear}
          className={button({ variant: 'ghost', size: 'sm' })}
        >
          Clear all
        </button>
      </div>
      <SearchField value={search.q} onCommit={(q) => onChange({ q })} />
      {showCategories && (
        <CheckList
          title="Categories"
          facets={facets.categories}
          selected={search.categories}
          onChange={(categories) => onChange({ categories })}
        />
      )}
      <CheckList
        title="Types"
        facets={facets.types}
        selected={search.types}
        onChange={(types) => onChange({ types })}
      />
      <CheckList
        title="Brands"
        facets={facets.brands}
        selected={search.brands}
        onChange={(brands) => onChange({ brands })}
      />
      {showEffects && (
        <CheckList
          title="Effects"
          facets={facets.effects}
          selected={search.effects}
          onChange={(effects) => onChange({ effects })}
        />
      )}
      <Section>
        <RangeSlider
          label="Price"
          {...prices}
          value={range(search.priceMin, search.priceMax, prices)}
          format={(v) => formatMoney(v).replace('.00', '')}
          onValueCommit={(value) => onChange(toPatch(value, prices, ['priceMin', 'priceMax']))}
        />
      </Section>
      <Section>
        <RangeSlider
          label="THC"
          {...THC_RANGE}
          value={range(search.thcMin, search.thcMax, THC_RANGE)}
          format={(v) => `${v}%`}
          onValueCommit={(value) => onChange(toPatch(value, THC_RANGE, ['thcMin', 'thcMax']))}
        />
      </Section>
      <Section>
        <RangeSlider
          label="CBD"
          {...CBD_RANGE}
          value={range(search.cbdMin, search.cbdMax, CBD_RANGE)}
          format={(v) => `${v.toFixed(1)}%`}
          onValueCommit={(value) => onChange(toPatch(value, CBD_RANGE, ['cbdMin', 'cbdMax']))}
        />
      </Section>
    </div>
  )
}
