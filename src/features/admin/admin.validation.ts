/**
 * The admin's forms (SPEC.md §5): login, the product form, brand / category / product type
 * create. Form fields hold text; these schemas turn them into what is sent, with SPEC.md's
 * messages where it names them and valibot's own elsewhere.
 */
import * as v from 'valibot'
import { metrcPackageProblems, metrcPackageSchema } from './metrc/metrc-package.validation'

export const loginSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('Required'), v.email('Invalid email')),
  password: v.pipe(v.string(), v.nonEmpty('Required')),
})

/** Text of a number input: empty is unset; otherwise a number within bounds. */
function numberField(options: { min?: number; max?: number; whole?: boolean } = {}) {
  const { min = 0, max, whole } = options
  const range = max === undefined ? `Must be at least ${min}` : `Must be between ${min} and ${max}`
  return v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => (text === '' ? undefined : Number(text))),
    v.union(
      [
        v.undefined(),
        v.pipe(
          v.number('Must be a number'),
          v.minValue(min, range),
          v.maxValue(max ?? Number.MAX_SAFE_INTEGER, range),
          v.check((n) => !whole || Number.isInteger(n), 'Must be a whole number'),
        ),
        // Text that is not a number (a CSV cell; a number input cannot hold one).
      ],
      'Must be a number',
    ),
  )
}

/**
 * The daily limit a product counts toward (4 CCR §15409; docs/decisions/051-california-taxes-and-daily-limits.md), as the form's select
 * holds it: options never have an empty value (SPEC.md §5), so "none" stands for no limit.
 */
export const LIMIT_CLASS_OPTIONS = [
  { value: 'flower', label: 'Flower (non-concentrated)' },
  { value: 'concentrate', label: 'Concentrate' },
  { value: 'none', label: 'None' },
] as const
export type LimitClassChoice = (typeof LIMIT_CLASS_OPTIONS)[number]['value']

/** The server's bounds (migration 20261128100500): milligrams and grams up to 100,000. */
export const MAX_FACT_AMOUNT = 100000

/** The messages of the server's product_facts_check, for the fields they are about. */
export const NOT_CANNABIS_LIMIT_MESSAGE =
  'A product that is not cannabis counts toward no daily limit: choose None'
export const limitGramsMessage = (limitClass: 'flower' | 'concentrate') =>
  `A product that counts toward the ${limitClass} limit needs the grams counted per unit (or its weight)`

/** The product's facts as the form and Import Products read them (text fields, like the rest). */
export const productFactsSchema = v.object({
  is_cannabis: v.boolean(),
  limit_class: v.picklist(['flower', 'concentrate', 'none'], 'Choose flower, concentrate or none'),
  limit_grams: numberField({ max: MAX_FACT_AMOUNT }),
  thc_mg: numberField({ max: MAX_FACT_AMOUNT }),
  cbd_mg: numberField({ max: MAX_FACT_AMOUNT }),
  servings: numberField({ min: 1, max: 1000, whole: true }),
})

const productFieldsSchema = v.object({
  sku: v.pipe(v.string(), v.trim(), v.nonEmpty('SKU is required')),
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('Product name is required')),
  description: v.pipe(v.string(), v.trim()),
  brand_id: v.string(),
  category_id: v.string(),
  product_type_id: v.string(),
  price: numberField(),
  original_price: numberField(),
  weight_grams: numberField(),
  quantity_available: numberField({ whole: true }),
  thc_percentage: numberField({ max: 100 }),
  cbd_percentage: numberField({ max: 100 }),
  total_cannabinoids_percentage: numberField({ max: 100 }),
  smokeback_percentage: numberField({ max: 100 }),
  is_unlimited_quantity: v.boolean(),
  is_on_sale: v.boolean(),
  is_active: v.boolean(),
  is_featured: v.boolean(),
  effects: v.array(v.string()),
  terpenes: v.array(v.object({ name: v.string(), percentage: numberField({ max: 100 }) })),
  ...productFactsSchema.entries,
  ...metrcPackageSchema.entries,
})

export type FactsTogether = {
  is_cannabis: boolean
  limit_class: LimitClassChoice
  limit_grams: number | undefined
  weight_grams: number | undefined
}

/**
 * The facts together, as the server checks them once the product is saved
 * (public.product_facts_check): only cannabis counts toward a daily limit, and a product that does
 * needs grams to count (its limit grams, else its weight, as place_order counts a unit). Each
 * message is keyed by the field that fixes it.
 */
export function factsProblems(
  facts: FactsTogether,
): Partial<Record<'limit_class' | 'limit_grams', string>> {
  if (facts.limit_class === 'none') return {}
  if (!facts.is_cannabis) return { limit_class: NOT_CANNABIS_LIMIT_MESSAGE }
  if ((facts.limit_grams ?? facts.weight_grams ?? 0) <= 0)
    return { limit_grams: limitGramsMessage(facts.limit_class) }
  return {}
}

/** The product form (SPEC.md §5), its facts checked together as well. */
export const productFormSchema = v.pipe(
  productFieldsSchema,
  v.forward(
    v.check((form) => !factsProblems(form).limit_class, NOT_CANNABIS_LIMIT_MESSAGE),
    ['limit_class'],
  ),
  v.forward(
    v.check(
      (form) => !factsProblems(form).limit_grams,
      (issue) => limitGramsMessage(issue.input.limit_class === 'flower' ? 'flower' : 'concentrate'),
    ),
    ['limit_grams'],
  ),
  v.forward(
    v.check(
      (form) => !metrcPackageProblems(form).metrc_package_tag,
      (issue) => metrcPackageProblems(issue.input).metrc_package_tag ?? '',
    ),
    ['metrc_package_tag'],
  ),
  v.forward(
    v.check(
      (form) => !metrcPackageProblems(form).metrc_unit,
      (issue) => metrcPackageProblems(issue.input).metrc_unit ?? '',
    ),
    ['metrc_unit'],
  ),
)

export type ProductFormValues = v.InferInput<typeof productFormSchema>
export type ProductFormOutput = v.InferOutput<typeof productFormSchema>
export type ProductFormField = keyof ProductFormValues

export const emptyProductForm: ProductFormValues = {
  sku: '',
  name: '',
  description: '',
  brand_id: '',
  category_id: '',
  product_type_id: '',
  price: '',
  original_price: '',
  weight_grams: '',
  quantity_available: '',
  thc_percentage: '',
  cbd_percentage: '',
  total_cannabinoids_percentage: '',
  smokeback_percentage: '',
  is_unlimited_quantity: false,
  is_on_sale: false,
  is_active: true,
  is_featured: false,
  effects: [],
  terpenes: [],
  is_cannabis: true,
  limit_class: 'none',
  limit_grams: '',
  thc_mg: '',
  cbd_mg: '',
  servings: '',
  metrc_package_tag: '',
  metrc_unit: '',
}

/** Validates the product form; errors come back keyed by field (first message each). */
export function validateProductForm(
  values: ProductFormValues,
): { ok: true; output: ProductFormOutput } | { ok: false; errors: Record<string, string> } {
  const result = v.safeParse(productFormSchema, values)
  if (result.success) return { ok: true, output: result.output }
  const errors: Record<string, string> = {}
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? 'form'
    errors[key] ??= issue.message
  }
  return { ok: false, errors }
}

const optionalText = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => (text === '' ? undefined : text)),
)
const optionalInteger = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => (text === '' ? undefined : Math.trunc(Number(text)))),
  v.union([v.undefined(), v.pipe(v.number('Must be a number'), v.integer())]),
)

export const brandFormSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('Brand name is required')),
  description: optionalText,
  founded_year: optionalInteger,
  logo_url: v.pipe(
    v.string(),
    v.trim(),
    v.union([v.literal(''), v.pipe(v.string(), v.url('Invalid URL'))]),
    v.transform((text) => (text === '' ? undefined : text)),
  ),
})

export const categoryFormSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('Category name is required')),
  description: optionalText,
  display_order: optionalInteger,
})

export const productTypeFormSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('Product type name is required')),
  description: optionalText,
})

/** Drops the keys whose value is undefined (SPEC.md §5: empty optional values are omitted). */
export function withoutEmpty<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

export type ReferenceKind = 'brand' | 'category' | 'product type'

export function referenceSchema(kind: ReferenceKind) {
  if (kind === 'brand') return brandFormSchema
  if (kind === 'category') return categoryFormSchema
  return productTypeFormSchema
}

/** First message per field of a failed parse. */
export function issuesByField(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? 'form'
    errors[key] ??= issue.message
  }
  return errors
}

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024
export const ALLOWED_UPLOAD_TYPES = [
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/webp',
  'video/mp4',
  'video/webm',
] as const

/** SPEC.md §5's file checks: splits a selection into accepted files and the two refusals. */
export function checkUploads(files: readonly File[]): {
  accepted: File[]
  badType: File[]
  tooLarge: File[]
} {
  const accepted: File[] = []
  const badType: File[] = []
  const tooLarge: File[] = []
  for (const file of files) {
    if (!(ALLOWED_UPLOAD_TYPES as readonly string[]).includes(file.type)) badType.push(file)
    else if (file.size > MAX_UPLOAD_BYTES) tooLarge.push(file)
    else accepted.push(file)
  }
  return { accepted, badType, tooLarge }
}
