/**
 * A product's facts in Export Products and Import Products (docs/decisions/051-california-taxes-and-daily-limits.md): whether it is cannabis,
 * the daily limit it counts toward with the grams of one unit, and its THC and CBD milligrams and
 * servings per package. Their columns are optional in an imported file: a file without one (an
 * export from before issue 31) leaves that fact as it is on the products it updates, and new
 * products get the server's defaults (cannabis, counted toward no daily limit, no milligrams).
 */
import * as v from 'valibot'
import { PRODUCT_FACT_KEYS, type AdminProductRow, type ProductFacts } from './admin-product'
import {
  factsProblems,
  productFactsSchema,
  type FactsTogether,
  type LimitClassChoice,
} from './admin.validation'

export const PRODUCT_FACT_COLUMNS = PRODUCT_FACT_KEYS

const number = (n: number | null) => (n === null ? '' : n)

/** The facts' cells, in PRODUCT_FACT_COLUMNS' order; no limit is an empty cell. */
export function factCells(row: AdminProductRow): (string | number)[] {
  return [
    String(row.is_cannabis),
    row.limit_class ?? '',
    number(row.limit_grams),
    number(row.thc_mg),
    number(row.cbd_mg),
    number(row.servings),
  ]
}

const YES = ['true', 'yes', 'y', '1']
const NO = ['false', 'no', 'n', '0']

/** "flower", "Flower (non-concentrated)", "concentrate", "none" or empty, in any case. */
function limitChoice(text: string): LimitClassChoice | null {
  const t = text.trim().toLowerCase()
  if (t === '' || t === 'none') return 'none'
  if (t === 'flower' || t === 'flower (non-concentrated)') return 'flower'
  if (t === 'concentrate') return 'concentrate'
  return null
}

export type ReadFacts = {
  /** Only the facts the file gives: the keys left out keep what the product has. */
  facts: Partial<ProductFacts>
  errors: string[]
}

/** The facts a row of an imported file gives, checked as the product form checks them. */
export function readFactCells(
  record: Record<string, string | undefined>,
  columns: readonly string[],
  row: { creating: boolean; weightGrams: number | undefined },
): ReadFacts {
  const has = (column: string) => columns.includes(column)
  const cell = (column: string) => (record[column] ?? '').trim()
  const errors: string[] = []

  let isCannabis: boolean | undefined
  if (has('is_cannabis') && cell('is_cannabis') !== '') {
    const t = cell('is_cannabis').toLowerCase()
    if (YES.includes(t)) isCannabis = true
    else if (NO.includes(t)) isCannabis = false
    else errors.push('is_cannabis: Must be true or false')
  }
  const choice = has('limit_class') ? limitChoice(cell('limit_class')) : 'none'
  if (choice === null) errors.push('limit_class: Must be flower, concentrate or none')

  const parsed = v.safeParse(productFactsSchema, {
    is_cannabis: isCannabis ?? true,
    limit_class: choice ?? 'none',
    limit_grams: has('limit_grams') ? cell('limit_grams') : '',
    thc_mg: has('thc_mg') ? cell('thc_mg') : '',
    cbd_mg: has('cbd_mg') ? cell('cbd_mg') : '',
    servings: has('servings') ? cell('servings') : '',
  })
  if (!parsed.success) {
    for (const issue of parsed.issues) errors.push(`${v.getDotPath(issue)}: ${issue.message}`)
    return { facts: {}, errors }
  }
  const out = parsed.output
  const facts: Partial<ProductFacts> = {}
  if (isCannabis !== undefined) facts.is_cannabis = isCannabis
  if (has('limit_class') && choice !== null) facts.limit_class = choice === 'none' ? null : choice
  // As the product form sends them: empty (or 0) is null, so limit grams count the weight.
  const orNull = (n: number | undefined) => (n === undefined || n === 0 ? null : n)
  if (has('limit_grams')) facts.limit_grams = orNull(out.limit_grams)
  if (has('thc_mg')) facts.thc_mg = orNull(out.thc_mg)
  if (has('cbd_mg')) facts.cbd_mg = orNull(out.cbd_mg)
  if (has('servings')) facts.servings = out.servings ?? null

  // The facts together where the file says all they depend on; otherwise (an update leaving a
  // column out) the server, which knows the product, checks them with the same message.
  if (errors.length === 0 && facts.limit_class) {
    const weightKnown = row.creating || has('weight_grams')
    const gramsKnown =
      facts.limit_grams != null || (weightKnown && (row.creating || has('limit_grams')))
    const together: FactsTogether = {
      is_cannabis: facts.is_cannabis ?? true,
      limit_class: facts.limit_class,
      limit_grams: facts.limit_grams ?? undefined,
      weight_grams: row.weightGrams,
    }
    const problems = factsProblems(together)
    if (problems.limit_class && facts.is_cannabis === false) errors.push(problems.limit_class)
    else if (problems.limit_grams && gramsKnown) errors.push(problems.limit_grams)
  }
  return { facts, errors }
}
