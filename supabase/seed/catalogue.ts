// The demo catalogue: a small California shop across the five SPEC.md categories. Plain data;
// build-catalogue.ts turns it into rows (ids, slugs, SKUs, HTML) and can pad it with generated
// products for large benchmark catalogues.

export type CategorySlug = 'flower' | 'edibles' | 'concentrates' | 'branded-bags' | 'wholesale'

export interface CategorySeed {
  slug: CategorySlug
  name: string
  description: string
  displayOrder: number
}

export interface BrandSeed {
  slug: string
  name: string
  description: string
  foundedYear: number
}

export interface ProductTypeSeed {
  name: string
  description: string
  category: CategorySlug
}

export interface ProductSeed {
  name: string
  category: CategorySlug
  brand: string
  type: string
  price: number
  /** Set when on sale: the pre-sale price, shown struck through. */
  originalPrice?: number
  /** 'unlimited' for items that are never out of stock (merchandise, packaging). */
  stock: number | 'unlimited'
  weightGrams: number | null
  thc?: number
  cbd?: number
  totalCannabinoids?: number
  smokeback?: number
  rating: number
  reviewCount: number
  featured?: boolean
  active?: boolean
  effects: string[]
  terpenes: [name: string, percentage: number | null][]
  /** Paragraphs of the HTML description. */
  blurb: string[]
  highlights: string[]
}

export const categories: CategorySeed[] = [
  {
    slug: 'flower',
    name: 'Flower',
    description: 'Sun-grown and indoor California flower, hand-trimmed and cured slow.',
    displayOrder: 1,
  },
  {
    slug: 'edibles',
    name: 'Edibles',
    description: 'Gummies, chocolates, drinks and baked goods with consistent, lab-verified doses.',
    displayOrder: 2,
  },
  {
    slug: 'concentrates',
    name: 'Concentrates',
    description: 'Live resin, rosin, shatter and wax from small-batch California extractors.',
    displayOrder: 3,
  },
  {
    slug: 'branded-bags',
    name: 'Branded Bags',
    description: 'Smell-proof pouches, limited runs and custom bags for carrying it discreetly.',
    displayOrder: 4,
  },
  {
    slug: 'wholesale',
    name: 'Wholesale',
    description: 'Bulk pricing for dispensaries and retailers: flower, concentrates and packaging.',
    displayOrder: 5,
  },
]

export const brands: BrandSeed[] = [
  {
    slug: 'humboldt-heritage',
    name: 'Humboldt Heritage',
    description: 'Third-generation growers in the hills above Garberville.',
    foundedYear: 1998,
  },
  {
    slug: 'sonoma-sungrown',
    name: 'Sonoma Sungrown',
    description: 'Regenerative, sun-grown farms in the Sonoma Valley.',
    foundedYear: 2016,
  },
  {
    slug: 'emerald-triangle-co',
    name: 'Emerald Triangle Co.',
    description: 'A cooperative of small Mendocino and Trinity County farms.',
    foundedYear: 2012,
  },
  {
    slug: 'big-sur-botanicals',
    name: 'Big Sur Botanicals',
    description: 'Coastal craft cultivation and wellness-minded CBD blends.',
    foundedYear: 2018,
  },
  {
    slug: 'golden-coast-farms',
    name: 'Golden Coast Farms',
    description: 'Greenhouse flower and pre-rolls from the Central Coast.',
    foundedYear: 2017,
  },
  {
    slug: 'pacific-bloom',
    name: 'Pacific Bloom',
    description: 'Bright, citrus-forward cultivars and sparkling cannabis tonics.',
    foundedYear: 2019,
  },
  {
    slug: 'laurel-canyon-confections',
    name: 'Laurel Canyon Confections',
    description: 'Chef-made gummies and chocolates from Los Angeles.',
    foundedYear: 2015,
  },
  {
    slug: 'golden-state-bakehouse',
    name: 'Golden State Bakehouse',
    description: 'Small-batch infused cookies and brownies, baked in Oakland.',
    foundedYear: 2020,
  },
  {
    slug: 'mojave-extracts',
    name: 'Mojave Extracts',
    description: 'Solventless and live resin concentrates from fresh-frozen flower.',
    foundedYear: 2014,
  },
  {
    slug: 'humo-goods',
    name: 'Humo Goods',
    description: "The shop's own line of smell-proof bags and accessories.",
    foundedYear: 2021,
  },
  {
    slug: 'salt-and-sage-packaging',
    name: 'Salt & Sage Packaging',
    description: 'Compliant, child-resistant packaging for California retailers.',
    foundedYear: 2013,
  },
]

export const productTypes: ProductTypeSeed[] = [
  { name: 'Indica', description: 'Relaxing, body-forward cultivars.', category: 'flower' },
  { name: 'Sativa', description: 'Uplifting, head-forward cultivars.', category: 'flower' },
  { name: 'Hybrid', description: 'Balanced crosses of indica and sativa.', category: 'flower' },
  { name: 'Pre-Rolls', description: 'Ready-to-smoke joints and multipacks.', category: 'flower' },
  { name: 'Gummies', description: 'Fruit gummies with measured doses.', category: 'edibles' },
  { name: 'Chocolates', description: 'Infused chocolate bars and bites.', category: 'edibles' },
  { name: 'Beverages', description: 'Sparkling tonics and infused drinks.', category: 'edibles' },
  {
    name: 'Baked Goods',
    description: 'Cookies, brownies and other baked treats.',
    category: 'edibles',
  },
  {
    name: 'Live Resin',
    description: 'Extracted from fresh-frozen flower for full terpene flavour.',
    category: 'concentrates',
  },
  {
    name: 'Rosin',
    description: 'Solventless concentrate pressed with heat and pressure.',
    category: 'concentrates',
  },
  { name: 'Shatter', description: 'Glass-like, stable concentrate.', category: 'concentrates' },
  {
    name: 'Wax',
    description: 'Soft, whipped concentrates such as badder and budder.',
    category: 'concentrates',
  },
  {
    name: 'Luxury Bags',
    description: 'Premium smell-proof bags and cases.',
    category: 'branded-bags',
  },
  {
    name: 'Limited Edition',
    description: 'Short runs and collaborations.',
    category: 'branded-bags',
  },
  {
    name: 'Custom Designs',
    description: 'Bags made to order with your brand.',
    category: 'branded-bags',
  },
  {
    name: 'Bulk Flower',
    description: 'Flower by the pound for licensed retailers.',
    category: 'wholesale',
  },
  {
    name: 'Bulk Concentrates',
    description: 'Concentrates in bulk for licensed retailers.',
    category: 'wholesale',
  },
  { name: 'Packaging', description: 'Compliant retail packaging.', category: 'wholesale' },
]

export const products: ProductSeed[] = [
  // flower ----------------------------------------------------------------------------------------
  {
    name: 'Humboldt Purple Kush',
    category: 'flower',
    brand: 'humboldt-heritage',
    type: 'Indica',
    price: 45,
    stock: 42,
    weightGrams: 3.5,
    thc: 24.6,
    cbd: 0.1,
    totalCannabinoids: 28.2,
    smokeback: 12,
    rating: 4.8,
    reviewCount: 214,
    featured: true,
    effects: ['Relaxed', 'Sleepy', 'Happy'],
    terpenes: [
      ['Myrcene', 1.2],
      ['Caryophyllene', 0.6],
      ['Linalool', 0.3],
    ],
    blurb: [
      'Dense, violet-streaked buds grown on a family farm above Garberville. Grape and earth on the nose, a heavy, calm finish.',
    ],
    highlights: ['Sun-grown, hand-trimmed', 'Cured for 21 days', 'Best for evenings'],
  },
  {
    name: 'Sonoma Sunrise Haze',
    category: 'flower',
    brand: 'sonoma-sungrown',
    type: 'Sativa',
    price: 42,
    originalPrice: 50,
    stock: 35,
    weightGrams: 3.5,
    thc: 22.1,
    cbd: 0.2,
    totalCannabinoids: 25.4,
    smokeback: 9,
    rating: 4.6,
    reviewCount: 128,
    effects: ['Energetic', 'Creative', 'Focused'],
    terpenes: [
      ['Terpinolene', 0.9],
      ['Ocimene', 0.4],
      ['Limonene', 0.3],
    ],
    blurb: [
      'A bright, spicy haze grown under full sun in the Sonoma Valley. Citrus peel and fresh pine; clear-headed and upbeat.',
    ],
    highlights: ['Regenerative farm', 'Great for daytime', 'Hang-dried whole plant'],
  },
  {
    name: 'Mendocino Mango Cookies',
    category: 'flower',
    brand: 'emerald-triangle-co',
    type: 'Hybrid',
    price: 48,
    stock: 28,
    weightGrams: 3.5,
    thc: 26.3,
    cbd: 0.1,
    totalCannabinoids: 30.1,
    smokeback: 14,
    rating: 4.9,
    reviewCount: 306,
    featured: true,
    effects: ['Euphoric', 'Relaxed', 'Giggly'],
    terpenes: [
      ['Limonene', 1.1],
      ['Myrcene', 0.7],
      ['Caryophyllene', 0.5],
    ],
    blurb: [
      'Ripe mango over a cookie-dough base, from a cooperative of small Mendocino farms. Balanced and social.',
    ],
    highlights: ['Small-farm cooperative', 'Top-shelf, frosty trichomes', 'Balanced hybrid'],
  },
  {
    name: 'Big Sur Blue Dream',
    category: 'flower',
    brand: 'big-sur-botanicals',
    type: 'Hybrid',
    price: 75,
    stock: 19,
    weightGrams: 7,
    thc: 19.8,
    cbd: 0.4,
    totalCannabinoids: 23.5,
    smokeback: 10,
    rating: 4.5,
    reviewCount: 97,
    effects: ['Happy', 'Uplifted', 'Calm'],
    terpenes: [
      ['Myrcene', 0.8],
      ['Pinene', 0.5],
      ['Caryophyllene', 0.3],
    ],
    blurb: [
      'The California classic, grown in coastal fog. Sweet blueberry, gentle lift, and an easy landing. A quarter for the week.',
    ],
    highlights: ['7 g quarter', 'Coastal craft cultivation', 'A crowd favourite'],
  },
  {
    name: 'Venice Beach OG Pre-Roll 5-Pack',
    category: 'flower',
    brand: 'golden-coast-farms',
    type: 'Pre-Rolls',
    price: 35,
    stock: 6,
    weightGrams: 3.5,
    thc: 23.4,
    cbd: 0.1,
    totalCannabinoids: 26.8,
    smokeback: 11,
    rating: 4.4,
    reviewCount: 163,
    effects: ['Relaxed', 'Happy', 'Hungry'],
    terpenes: [
      ['Limonene', 0.7],
      ['Caryophyllene', 0.6],
      ['Humulene', 0.2],
    ],
    blurb: [
      'Five 0.7 g joints of whole-flower OG Kush, rolled in unbleached papers with glass tips. Nothing shaken, nothing trimmed.',
    ],
    highlights: ['Whole flower, no shake', 'Glass tips', 'Five 0.7 g joints'],
  },
  {
    name: 'Ojai Pink Lemonade',
    category: 'flower',
    brand: 'pacific-bloom',
    type: 'Sativa',
    price: 40,
    stock: 0,
    weightGrams: 3.5,
    thc: 21.2,
    cbd: 0.3,
    totalCannabinoids: 24.9,
    smokeback: 8,
    rating: 4.7,
    reviewCount: 88,
    effects: ['Uplifted', 'Talkative', 'Creative'],
    terpenes: [
      ['Limonene', 1.3],
      ['Pinene', 0.4],
      ['Linalool', 0.2],
    ],
    blurb: [
      'Tart citrus and berry from the Ojai Valley. Sold out until the next harvest comes in.',
    ],
    highlights: ['Limited harvest', 'Citrus-forward', 'Greenhouse grown'],
  },
  // edibles ---------------------------------------------------------------------------------------
  {
    name: 'Watermelon Sea Salt Gummies',
    category: 'edibles',
    brand: 'laurel-canyon-confections',
    type: 'Gummies',
    price: 22,
    originalPrice: 28,
    stock: 60,
    weightGrams: 50,
    thc: 0.2,
    rating: 4.7,
    reviewCount: 402,
    featured: true,
    effects: ['Happy', 'Relaxed', 'Giggly'],
    terpenes: [],
    blurb: [
      'Ten vegan gummies of 10 mg THC each, made with real watermelon juice and a pinch of flaky sea salt.',
    ],
    highlights: ['10 x 10 mg THC', 'Vegan, gluten-free', 'Made in Los Angeles'],
  },
  {
    name: 'Dark Chocolate Sea Salt Bar',
    category: 'edibles',
    brand: 'laurel-canyon-confections',
    type: 'Chocolates',
    price: 26,
    stock: 44,
    weightGrams: 45,
    thc: 0.22,
    rating: 4.8,
    reviewCount: 251,
    featured: true,
    effects: ['Calm', 'Happy', 'Relaxed'],
    terpenes: [],
    blurb: [
      '72% single-origin dark chocolate in twenty scored squares of 5 mg THC. Snap off exactly what you want.',
    ],
    highlights: ['20 x 5 mg THC', '72% cacao', 'Scored for easy dosing'],
  },
  {
    name: 'Yuzu Sparkling Tonic',
    category: 'edibles',
    brand: 'pacific-bloom',
    type: 'Beverages',
    price: 9,
    stock: 120,
    weightGrams: 355,
    rating: 4.3,
    reviewCount: 74,
    effects: ['Uplifted', 'Social', 'Refreshed'],
    terpenes: [['Limonene', null]],
    blurb: [
      'A 12 oz sparkling tonic with yuzu and ginger and a light 5 mg THC. Fast-acting nano emulsion, no aftertaste.',
    ],
    highlights: ['5 mg THC per can', 'Fast-acting', '25 calories'],
  },
  {
    name: 'Brown Butter Snickerdoodles',
    category: 'edibles',
    brand: 'golden-state-bakehouse',
    type: 'Baked Goods',
    price: 24,
    stock: 18,
    weightGrams: 120,
    thc: 0.08,
    rating: 4.6,
    reviewCount: 59,
    effects: ['Relaxed', 'Happy', 'Hungry'],
    terpenes: [],
    blurb: [
      'Four soft snickerdoodles with brown butter and Saigon cinnamon, 10 mg THC each. Baked weekly in Oakland.',
    ],
    highlights: ['4 x 10 mg THC', 'Baked weekly', 'Individually wrapped'],
  },
  {
    name: 'Lavender Dream CBD Sleep Gummies',
    category: 'edibles',
    brand: 'big-sur-botanicals',
    type: 'Gummies',
    price: 30,
    stock: 52,
    weightGrams: 60,
    thc: 0.05,
    cbd: 0.5,
    rating: 4.5,
    reviewCount: 133,
    effects: ['Sleepy', 'Calm', 'Relaxed'],
    terpenes: [
      ['Linalool', null],
      ['Myrcene', null],
    ],
    blurb: [
      'A 10:1 CBD to THC gummy with lavender and chamomile for winding down without a heavy head in the morning.',
    ],
    highlights: ['25 mg CBD + 2.5 mg THC each', 'Lavender and chamomile', '12 per jar'],
  },
  // concentrates ----------------------------------------------------------------------------------
  {
    name: 'Tangie Live Resin Sauce',
    category: 'concentrates',
    brand: 'mojave-extracts',
    type: 'Live Resin',
    price: 55,
    stock: 24,
    weightGrams: 1,
    thc: 78.4,
    cbd: 0.2,
    totalCannabinoids: 86.1,
    rating: 4.8,
    reviewCount: 118,
    featured: true,
    effects: ['Energetic', 'Euphoric', 'Creative'],
    terpenes: [
      ['Terpinolene', 4.1],
      ['Myrcene', 2.2],
      ['Ocimene', 1.4],
    ],
    blurb: [
      'High-terpene sauce with THCa diamonds, extracted from fresh-frozen Tangie. Tastes like a tangerine peeled in the garden.',
    ],
    highlights: ['Fresh-frozen input', 'High terpene fraction', '1 g jar'],
  },
  {
    name: 'Cold Cure Papaya Hash Rosin',
    category: 'concentrates',
    brand: 'emerald-triangle-co',
    type: 'Rosin',
    price: 70,
    originalPrice: 85,
    stock: 14,
    weightGrams: 1,
    thc: 74.2,
    cbd: 0.1,
    totalCannabinoids: 81.9,
    rating: 4.9,
    reviewCount: 77,
    effects: ['Relaxed', 'Euphoric', 'Happy'],
    terpenes: [
      ['Myrcene', 2.8],
      ['Limonene', 1.6],
      ['Ocimene', 0.9],
    ],
    blurb: [
      'Solventless, 90-micron ice-water hash pressed and cold-cured into a creamy jam. Tropical papaya nose, nothing added.',
    ],
    highlights: ['Solventless', 'Cold-cured', 'Tier 1 ice-water hash'],
  },
  {
    name: 'Gelato Shatter',
    category: 'concentrates',
    brand: 'mojave-extracts',
    type: 'Shatter',
    price: 35,
    stock: 31,
    weightGrams: 1,
    thc: 81.5,
    cbd: 0.1,
    totalCannabinoids: 84.3,
    rating: 4.3,
    reviewCount: 64,
    effects: ['Relaxed', 'Happy', 'Tingly'],
    terpenes: [
      ['Caryophyllene', 1.2],
      ['Limonene', 0.9],
      ['Humulene', 0.4],
    ],
    blurb: [
      'Amber glass that snaps clean. Sweet sherbet and lavender from Gelato #33, purged slow for stability.',
    ],
    highlights: ['Stable glass texture', 'Easy to portion', '1 g'],
  },
  {
    name: 'Lemon Cake Badder',
    category: 'concentrates',
    brand: 'mojave-extracts',
    type: 'Wax',
    price: 40,
    stock: 4,
    weightGrams: 1,
    thc: 76.9,
    cbd: 0.2,
    totalCannabinoids: 82.7,
    rating: 4.6,
    reviewCount: 52,
    effects: ['Uplifted', 'Focused', 'Happy'],
    terpenes: [
      ['Limonene', 2.4],
      ['Terpinolene', 1.1],
      ['Linalool', 0.5],
    ],
    blurb: [
      'Whipped, cake-batter-soft badder with a loud lemon frosting nose. Almost gone from this batch.',
    ],
    highlights: ['Whipped texture', 'Lemon-forward', 'Small batch'],
  },
  {
    name: 'Jack Herer Live Resin Cart',
    category: 'concentrates',
    brand: 'sonoma-sungrown',
    type: 'Live Resin',
    price: 38,
    stock: 47,
    weightGrams: 0.5,
    thc: 72.6,
    cbd: 0.3,
    totalCannabinoids: 80.2,
    rating: 4.4,
    reviewCount: 141,
    effects: ['Focused', 'Creative', 'Energetic'],
    terpenes: [
      ['Terpinolene', 3.2],
      ['Pinene', 1.5],
      ['Caryophyllene', 0.8],
    ],
    blurb: [
      'Half-gram 510 cartridge of live resin with nothing but cannabis-derived terpenes. Piney, peppery and clear.',
    ],
    highlights: ['510 thread, ceramic coil', 'No added flavours', '0.5 g'],
  },
  // branded bags ----------------------------------------------------------------------------------
  {
    name: 'Humo Smell-Proof Travel Pouch',
    category: 'branded-bags',
    brand: 'humo-goods',
    type: 'Luxury Bags',
    price: 39.99,
    stock: 'unlimited',
    weightGrams: null,
    rating: 4.7,
    reviewCount: 187,
    effects: [],
    terpenes: [],
    blurb: [
      'A carbon-lined, water-resistant pouch with a combination lock. Fits an eighth, papers and a lighter.',
    ],
    highlights: ['Activated-carbon lining', 'Combination lock', 'Water-resistant shell'],
  },
  {
    name: 'Golden Hour Limited Edition Stash Bag',
    category: 'branded-bags',
    brand: 'humo-goods',
    type: 'Limited Edition',
    price: 59.99,
    stock: 25,
    weightGrams: null,
    rating: 4.9,
    reviewCount: 42,
    featured: true,
    effects: [],
    terpenes: [],
    blurb: [
      'A numbered run of 500 bags in sunset-orange canvas with embroidered Humo script. Smell-proof, of course.',
    ],
    highlights: ['Numbered, 500 made', 'Embroidered canvas', 'Smell-proof liner'],
  },
  {
    name: 'Custom Embroidered Dispensary Bag',
    category: 'branded-bags',
    brand: 'salt-and-sage-packaging',
    type: 'Custom Designs',
    price: 149.99,
    stock: 40,
    weightGrams: null,
    rating: 4.5,
    reviewCount: 23,
    effects: [],
    terpenes: [],
    blurb: [
      'Fifty zip bags embroidered with your logo, in any of twelve colours. Proofs within two business days.',
    ],
    highlights: ['Pack of 50', 'Your logo, 12 colours', 'Proof in 2 days'],
  },
  {
    name: 'Vegan Leather Rolling Clutch',
    category: 'branded-bags',
    brand: 'humo-goods',
    type: 'Luxury Bags',
    price: 49.99,
    originalPrice: 64.99,
    stock: 33,
    weightGrams: null,
    rating: 4.6,
    reviewCount: 68,
    effects: [],
    terpenes: [],
    blurb: [
      'A fold-out clutch with a magnetic rolling tray, paper sleeve and glass-tip loops, in soft vegan leather.',
    ],
    highlights: ['Magnetic rolling tray', 'Vegan leather', 'Fits king-size papers'],
  },
  // wholesale -------------------------------------------------------------------------------------
  {
    name: 'Bulk Indoor Hybrid Mix (1 lb)',
    category: 'wholesale',
    brand: 'humboldt-heritage',
    type: 'Bulk Flower',
    price: 1299.99,
    stock: 12,
    weightGrams: 453.6,
    thc: 23.8,
    cbd: 0.2,
    totalCannabinoids: 27.5,
    rating: 4.6,
    reviewCount: 19,
    featured: true,
    effects: ['Relaxed', 'Happy'],
    terpenes: [
      ['Myrcene', 0.9],
      ['Caryophyllene', 0.5],
    ],
    blurb: [
      'A pound of indoor A-grade hybrid, lab-tested and METRC-tagged, for licensed retailers only.',
    ],
    highlights: ['Licensed retailers only', 'COA with every lot', 'METRC-tagged'],
  },
  {
    name: 'Bulk Sungrown Sativa (1 lb)',
    category: 'wholesale',
    brand: 'sonoma-sungrown',
    type: 'Bulk Flower',
    price: 899.99,
    originalPrice: 1099.99,
    stock: 20,
    weightGrams: 453.6,
    thc: 20.4,
    cbd: 0.3,
    totalCannabinoids: 24.1,
    rating: 4.4,
    reviewCount: 11,
    effects: ['Energetic', 'Uplifted'],
    terpenes: [
      ['Terpinolene', 0.7],
      ['Ocimene', 0.3],
    ],
    blurb: [
      'Full-sun sativa by the pound at harvest pricing. Great for house eighths and pre-roll programmes.',
    ],
    highlights: ['Harvest pricing', 'COA with every lot', 'Licensed retailers only'],
  },
  {
    name: 'Bulk Live Resin Sauce (28 g)',
    category: 'wholesale',
    brand: 'mojave-extracts',
    type: 'Bulk Concentrates',
    price: 650,
    stock: 9,
    weightGrams: 28,
    thc: 77.1,
    cbd: 0.1,
    totalCannabinoids: 85,
    rating: 4.7,
    reviewCount: 8,
    effects: ['Euphoric', 'Creative'],
    terpenes: [
      ['Limonene', 3.1],
      ['Myrcene', 2],
    ],
    blurb: [
      'An ounce of live resin sauce in a glass jar, ready for your own fill line or dab bar.',
    ],
    highlights: ['28 g glass jar', 'Fresh-frozen input', 'Licensed retailers only'],
  },
  {
    name: 'Child-Resistant Mylar Bags (1,000 ct)',
    category: 'wholesale',
    brand: 'salt-and-sage-packaging',
    type: 'Packaging',
    price: 189.99,
    stock: 'unlimited',
    weightGrams: null,
    rating: 4.5,
    reviewCount: 36,
    effects: [],
    terpenes: [],
    blurb: [
      'One thousand opaque, child-resistant eighth bags that meet California packaging rules. Matte black with a clear window.',
    ],
    highlights: ['Child-resistant certified', 'California compliant', '1,000 per case'],
  },
]
