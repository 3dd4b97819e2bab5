// A product's facts in the back office (issue 31): the product form's checks and payload, the
// admin catalogue's documents, and Export / Import Products' columns.
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { adminProductRowToDoc } from '../../data/replication/admin-products-replication'
import { parseProductsCsv, PRODUCT_CSV_COLUMNS, productsToCsv } from './admin-csv'
import {
  adminProductDocToRow,
  buildSavePayload,
  formValuesOf,
  type AdminProductRow,
} from './admin-product'
import { emptyProductForm, validateProductForm, type ProductFormValues } from './admin.validation'
import { perServingText } from './components/product-facts-fields'

const form = (over: Partial<ProductFormValues>): ProductFormValues => ({
  ...emptyProductForm,
  sku: 'G-1',
  name: 'Gummies',
  ...over,
})

function errorsOf(values: ProductFormValues) {
  const result = validateProductForm(values)
  return result.ok ? {} : result.errors
}

describe('the product form', () => {
  it('starts a new product as cannabis, counted toward no limit', () => {
    expect(emptyProductForm).toMatchObject({ is_cannabis: true, limit_class: 'none' })
    const result = validateProductForm(form({}))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(buildSavePayload(result.output, { id: 'x', isNew: true, media: [] })).toMatchObject({
      is_cannabis: true,
      limit_class: null,
      limit_grams: null,
      thc_mg: null,
      cbd_mg: null,
      servings: null,
    })
  })

  it('sends an edible as milligrams per package with its servings, counted by its THC', () => {
    const result = validateProductForm(
      form({
        weight_grams: '50',
        limit_class: 'concentrate',
        limit_grams: '0.1',
        thc_mg: '100',
        cbd_mg: '0',
        servings: '10',
      }),
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(buildSavePayload(result.output, { id: 'x', isNew: false, media: [] })).toMatchObject({
      is_cannabis: true,
      limit_class: 'concentrate',
      limit_grams: 0.1,
      thc_mg: 100,
      cbd_mg: null,
      servings: 10,
    })
  })

  it('counts flower by its weight when the limit grams are left empty', () => {
    expect(errorsOf(form({ limit_class: 'flower', weight_grams: '3.5' }))).toEqual({})
    expect(errorsOf(form({ limit_class: 'flower' }))).toEqual({
      limit_grams:
        'A product that counts toward the flower limit needs the grams counted per unit (or its weight)',
    })
  })

  it('refuses a daily limit for merchandise, on the limit field', () => {
    expect(
      errorsOf(form({ is_cannabis: false, limit_class: 'concentrate', weight_grams: '5' })),
    ).toEqual({
      limit_class: 'A product that is not cannabis counts toward no daily limit: choose None',
    })
    expect(errorsOf(form({ is_cannabis: false, limit_class: 'none' }))).toEqual({})
  })

  it('checks milligrams, grams and servings as the server does', () => {
    expect(
      errorsOf(form({ thc_mg: '-1', cbd_mg: 'x', limit_grams: '100001', servings: '0' })),
    ).toEqual({
      thc_mg: 'Must be between 0 and 100000',
      cbd_mg: 'Must be a number',
      limit_grams: 'Must be between 0 and 100000',
      servings: 'Must be between 1 and 1000',
    })
    expect(errorsOf(form({ servings: '2.5' }))).toEqual({ servings: 'Must be a whole number' })
  })

  it('edits what a product has, an empty limit grams field meaning its weight', () => {
    const values = formValuesOf(
      adminRow({
        limit_class: 'concentrate',
        limit_grams: 0.1,
        thc_mg: 100,
        servings: 10,
        weight_grams: 50,
      }),
    )
    expect(values).toMatchObject({
      is_cannabis: true,
      limit_class: 'concentrate',
      limit_grams: '0.1',
      thc_mg: '100',
      cbd_mg: '',
      servings: '10',
    })
    expect(formValuesOf(adminRow({ is_cannabis: false }))).toMatchObject({
      is_cannabis: false,
      limit_class: 'none',
      limit_grams: '',
    })
  })

  it('shows what one serving holds', () => {
    expect(perServingText('100', '10')).toBe('10 mg')
    expect(perServingText('30', '12')).toBe('2.5 mg')
    expect(perServingText('10', '3')).toBe('3.33 mg')
    expect(perServingText('100', '')).toBeNull()
    expect(perServingText('', '10')).toBeNull()
    expect(perServingText('100', '0')).toBeNull()
  })
})

function adminRow(over: Partial<AdminProductRow>): AdminProductRow {
  const { _deleted, ...doc } = adminProductRowToDoc({
    id: 'p1',
    _modified: '2026-11-28T10:00:00.000000Z',
    _deleted: false,
    name: 'Watermelon Gummies',
    sku: 'EDB-1',
    is_cannabis: true,
  })
  void _deleted
  return { ...adminProductDocToRow(doc), ...over }
}

describe('the admin catalogue', () => {
  it('keeps the facts pulled with each product, limit grams as entered', () => {
    const { _deleted, ...doc } = adminProductRowToDoc({
      id: 'p2',
      _modified: '2026-11-28T10:00:00.000000Z',
      _deleted: false,
      name: 'Eighth',
      sku: 'FLW-1',
      weight_grams: '3.50',
      is_cannabis: true,
      limit_class: 'flower',
      limit_grams: null,
      thc_mg: null,
      cbd_mg: null,
      servings: null,
    })
    expect(_deleted).toBe(false)
    expect(doc).toMatchObject({ isCannabis: true, limitClass: 'flower', limitGrams: null })
    const bag = adminProductRowToDoc({
      id: 'p3',
      _modified: '2026-11-28T10:00:00.000000Z',
      _deleted: false,
      name: 'Bag',
      sku: 'BAG-1',
      is_cannabis: false,
      limit_class: null,
      thc_mg: '0.00',
    })
    expect(bag).toMatchObject({ isCannabis: false, limitClass: null, thcMg: 0 })
    expect(adminProductDocToRow(doc)).toMatchObject({ is_cannabis: true, limit_class: 'flower' })
  })
})

describe('Export and Import Products', () => {
  const lookups = {
    brands: [],
    categories: [],
    productTypes: [],
    existing: [
      { id: 'p1', sku: 'EDB-1' },
      { id: 'p2', sku: 'BAG-1' },
    ],
  }
  const cellsOf = (csv: string) =>
    Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data

  it('exports the facts in their own columns, no limit as an empty cell', () => {
    expect(PRODUCT_CSV_COLUMNS.slice(-8, -2)).toEqual([
      'is_cannabis',
      'limit_class',
      'limit_grams',
      'thc_mg',
      'cbd_mg',
      'servings',
    ])
    // Issue 32's Metrc package follows them (metrc/metrc-package-csv.ts).
    expect(PRODUCT_CSV_COLUMNS.slice(-2)).toEqual(['metrc_package_tag', 'metrc_unit'])
    const csv = productsToCsv([
      adminRow({
        limit_class: 'concentrate',
        limit_grams: 0.1,
        thc_mg: 100,
        cbd_mg: null,
        servings: 10,
      }),
      adminRow({ id: 'p2', sku: 'BAG-1', is_cannabis: false }),
    ])
    const [edible, bag] = cellsOf(csv)
    expect(edible).toMatchObject({
      is_cannabis: 'true',
      limit_class: 'concentrate',
      limit_grams: '0.1',
      thc_mg: '100',
      cbd_mg: '',
      servings: '10',
    })
    expect(bag).toMatchObject({ is_cannabis: 'false', limit_class: '', limit_grams: '' })
  })

  it('reads an export back to the same facts', () => {
    const csv = productsToCsv([
      adminRow({ limit_class: 'concentrate', limit_grams: 0.1, thc_mg: 100, servings: 10 }),
      adminRow({ id: 'p2', sku: 'BAG-1', is_cannabis: false }),
    ])
    const { rows, fileErrors } = parseProductsCsv(csv, lookups)
    expect(fileErrors).toEqual([])
    expect(rows.map((r) => r.errors)).toEqual([[], []])
    expect(rows[0]!.payload).toMatchObject({
      is_cannabis: true,
      limit_class: 'concentrate',
      limit_grams: 0.1,
      thc_mg: 100,
      cbd_mg: null,
      servings: 10,
    })
    expect(rows[1]!.payload).toMatchObject({ is_cannabis: false, limit_class: null })
  })

  it('leaves the facts of a file without their columns to what the products have', () => {
    const { rows } = parseProductsCsv('sku,name,price\nEDB-1,Gummies,22\nNEW-1,New,5', lookups)
    for (const key of ['is_cannabis', 'limit_class', 'limit_grams', 'thc_mg', 'cbd_mg', 'servings'])
      for (const row of rows) expect(row.payload).not.toHaveProperty(key)
  })

  it('takes "Flower (non-concentrated)", None and yes/no as the form says them', () => {
    const { rows } = parseProductsCsv(
      'sku,name,weight_grams,is_cannabis,limit_class\nEDB-1,A,3.5,yes,Flower (non-concentrated)\nBAG-1,B,,No,None',
      lookups,
    )
    expect(rows.map((r) => r.errors)).toEqual([[], []])
    expect(rows[0]!.payload).toMatchObject({ is_cannabis: true, limit_class: 'flower' })
    expect(rows[1]!.payload).toMatchObject({ is_cannabis: false, limit_class: null })
  })

  it('names each bad fact cell of a row', () => {
    const { rows } = parseProductsCsv(
      'sku,name,is_cannabis,limit_class,thc_mg,servings\nEDB-1,A,maybe,edible,-5,0',
      lookups,
    )
    expect(rows[0]!.errors).toEqual([
      'is_cannabis: Must be true or false',
      'limit_class: Must be flower, concentrate or none',
      'thc_mg: Must be between 0 and 100000',
      'servings: Must be between 1 and 1000',
    ])
  })

  it('checks the facts together where the file says all they depend on', () => {
    const { rows } = parseProductsCsv(
      [
        'sku,name,media,weight_grams,is_cannabis,limit_class,limit_grams',
        // New products: everything is known.
        'NEW-1,Bag,b.png,,false,flower,',
        'NEW-2,Crumble,c.png,,,concentrate,',
        'NEW-3,Eighth,e.png,3.5,,flower,',
        // An update whose file has the weight column: known too.
        'EDB-1,Gummies,,,true,concentrate,',
      ].join('\n'),
      lookups,
    )
    expect(rows.map((r) => r.errors)).toEqual([
      ['A product that is not cannabis counts toward no daily limit: choose None'],
      [
        'A product that counts toward the concentrate limit needs the grams counted per unit (or its weight)',
      ],
      [],
      [
        'A product that counts toward the concentrate limit needs the grams counted per unit (or its weight)',
      ],
    ])
    // Without the weight and limit grams columns, an update's grams are the server's to check.
    const update = parseProductsCsv('sku,name,limit_class\nEDB-1,Gummies,concentrate', lookups)
    expect(update.rows[0]!.errors).toEqual([])
    expect(update.rows[0]!.payload).toMatchObject({ limit_class: 'concentrate' })
  })
})
