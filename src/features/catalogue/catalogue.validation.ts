/**
 * The menu's search params (SPEC.md §9 filters, sort and view), validated by the menu routes'
 * `validateSearch`. Every field is optional and falls back to "not set" when a link carries a
 * bad value, so an old or hand-edited URL still opens the menu.
 */
import * as v from 'valibot'

export const SORT_KEYS = ['relevance', 'price-asc', 'price-desc', 'name', 'thc', 'rating'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export const VIEW_MODES = ['grid', 'list'] as const
export type ViewMode = (typeof VIEW_MODES)[number]

/** SPEC.md §9 filter ranges. */
export const PRICE_RANGE = { min: 0, max: 5000, step: 10 } as const
export const THC_RANGE = { min: 0, max: 100, step: 1 } as const
export const CBD_RANGE = { min: 0, max: 100, step: 0.1 } as const

const optional = <T extends v.GenericSchema>(schema: T) => v.fallback(v.optional(schema), undefined)
const names = optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(120))), v.maxLength(60)))
const bounded = (min: number, max: number) =>
  optional(v.pipe(v.number(), v.minValue(min), v.maxValue(max)))

export const menuSearchSchema = v.object({
  /** Text search over product names (any case). */
  q: optional(v.pipe(v.string(), v.maxLength(120))),
  /** A subcategory link's value (SPEC.md §2), e.g. "live-resin" or "sale-items". */
  category: optional(v.pipe(v.string(), v.maxLength(60))),
  categories: names,
  types: names,
  brands: names,
  effects: names,
  priceMin: bounded(PRICE_RANGE.min, PRICE_RANGE.max),
  priceMax: bounded(PRICE_RANGE.min, PRICE_RANGE.max),
  thcMin: bounded(THC_RANGE.min, THC_RANGE.max),
  thcMax: bounded(THC_RANGE.min, THC_RANGE.max),
  cbdMin: bounded(CBD_RANGE.min, CBD_RANGE.max),
  cbdMax: bounded(CBD_RANGE.min, CBD_RANGE.max),
  sort: optional(v.picklist(SORT_KEYS)),
  view: optional(v.picklist(VIEW_MODES)),
})

export type MenuSearch = v.InferOutput<typeof menuSearchSchema>
