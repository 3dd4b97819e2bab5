/**
 * The admin's forms (SPEC.md §5): login, the product form, brand / category / product type
 * create. Form fields hold text; these schemas turn them into what is sent, with SPEC.md's
 * messages where it names them and valibot's own elsewhere.
 */
import * as v from 'valibot'

export const loginSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('Required'), v.email('Invalid email')),
  password: v.pipe(v.string(), v.nonEmpty('Required')),
})

/** Text of a number input: empty is unset; otherwise a number within bounds. */
function numberField(options: { max?: number; whole?: boolean } = {}) {
  const { max, whole } = options
  const range = max === undefined ? 'Must be at least 0' : `Must be between 0 and ${max}`
  return v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => (text === '' ? undefined : Number(text))),
    v.union([
      v.undefined(),
      v.pipe(
        v.number('Must be a number'),
        v.minValue(0, range),
        v.maxValue(max ?? Number.MAX_SAFE_INTEGER, range),
        v.check((n) => !whole || Number.isInteger(n), 'Must be a whole number'),
      ),
    ]),
  )
}

export const productFormSchema = v.object({
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
})

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
