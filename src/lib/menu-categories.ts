/**
 * The storefront's menus (SPEC.md §2 route table, header navigation and menu titles): each
 * category's path, title, blurb, promotion and subcategory links. The header, the menu listing
 * and the home tiles all read this table.
 */
export const MENU_CATEGORIES = [
  'flower',
  'edibles',
  'concentrates',
  'branded-bags',
  'wholesale',
  'all',
] as const
export type MenuCategory = (typeof MENU_CATEGORIES)[number]

export type MenuEntry = {
  slug: MenuCategory
  /** Label in the navigation. */
  name: string
  /** Heading of the menu page. */
  title: string
  blurb: string
  /**
   * Short promotion line on tiles and dropdowns: words only. A price or a discount here would be a
   * number no product backs (issue 33); the menus and cards show the real ones.
   */
  promotion: string
  subcategories: readonly string[]
  /** Effects filter shown (SPEC.md §9: only flower, concentrates and edibles). */
  hasEffects: boolean
}

export const MENU: readonly MenuEntry[] = [
  {
    slug: 'flower',
    name: 'Flower',
    title: 'Flower Menu',
    blurb:
      'Sun-grown and indoor California flower, hand-trimmed and slow-cured. Indica, sativa, hybrid and pre-rolls.',
    promotion: 'Hand-trimmed',
    subcategories: ['Indica', 'Sativa', 'Hybrid', 'Pre-Rolls'],
    hasEffects: true,
  },
  {
    slug: 'edibles',
    name: 'Edibles',
    title: 'Edibles',
    blurb: 'Gummies, chocolates, drinks and baked goods with consistent, lab-verified doses.',
    promotion: 'Measured doses',
    subcategories: ['Gummies', 'Chocolates', 'Beverages', 'Baked Goods'],
    hasEffects: true,
  },
  {
    slug: 'concentrates',
    name: 'Concentrates',
    title: 'Concentrate Menu',
    blurb: 'Live resin, rosin, shatter and wax from small-batch California extractors.',
    promotion: 'Small-batch',
    subcategories: ['Live Resin', 'Rosin', 'Shatter', 'Wax'],
    hasEffects: true,
  },
  {
    slug: 'branded-bags',
    name: 'Branded Bags',
    title: 'Branded Bags',
    blurb: 'Smell-proof pouches, limited runs and custom bags for carrying it discreetly.',
    promotion: 'Custom runs',
    subcategories: ['Luxury Bags', 'Limited Edition', 'Custom Designs'],
    hasEffects: false,
  },
  {
    slug: 'wholesale',
    name: 'Wholesale',
    title: 'Wholesale Menu',
    blurb: 'Bulk pricing for dispensaries and retailers: flower, concentrates and packaging.',
    promotion: 'Bulk pricing',
    subcategories: ['Bulk Flower', 'Bulk Concentrates', 'Packaging'],
    hasEffects: false,
  },
  {
    slug: 'all',
    name: 'Shop All',
    title: 'All Products',
    blurb: 'Everything on the menu, from farm-direct flower to wholesale packaging.',
    promotion: 'Everything in one place',
    subcategories: ['All Categories', 'Best Sellers', 'New Arrivals', 'Sale Items'],
    hasEffects: false,
  },
]

export function menuEntry(slug: MenuCategory): MenuEntry {
  return MENU.find((entry) => entry.slug === slug)!
}

export function isMenuCategory(value: string): value is MenuCategory {
  return (MENU_CATEGORIES as readonly string[]).includes(value)
}

/**
 * SPEC.md §2: a subcategory link's `category` query value is the name in lower case with the
 * first space replaced by a hyphen ("Live Resin" → "live-resin").
 */
export function subcategoryParam(name: string): string {
  return name.toLowerCase().replace(' ', '-')
}

/** Shop All's subcategories that are views of the whole menu rather than product types. */
export const SHOP_ALL_VIEWS = {
  'all-categories': 'all',
  'best-sellers': 'best-sellers',
  'new-arrivals': 'new-arrivals',
  'sale-items': 'sale',
} as const
