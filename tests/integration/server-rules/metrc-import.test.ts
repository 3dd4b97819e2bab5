// Import Products carries the Metrc package (issue 32, docs/decisions/054-metrc-sales-export.md) through the real API
// (the embedded server's chunked import): a row's tag and unit are written with the import, a row
// without them keeps the product's, and a refused package refuses the whole file naming the row.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUser,
  rpc,
  startRulesBackend,
  testPackageTag,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true })
})
afterAll(async () => {
  await backend?.close()
})

const row = (extra: Record<string, unknown> = {}) => {
  const sku = `MTR-${randomUUID().slice(0, 8).toUpperCase()}`
  return {
    id: randomUUID(),
    is_new: true,
    sku,
    name: `Metrc ${sku}`,
    price: 20,
    quantity_available: 50,
    weight_grams: 3.5,
    media: [{ media_url: `metrc/${sku}.png` }],
    ...extra,
  }
}

const packageOf = async (sku: string) =>
  (
    await backend.db.query<{ metrc_package_tag: string | null; metrc_unit: string | null }>(
      'select metrc_package_tag, metrc_unit from public.products where sku = $1 and not _deleted',
      [sku],
    )
  ).rows[0]

describe('Import Products and the Metrc package', () => {
  it('writes the package a row gives, and keeps the one a row leaves out', async () => {
    const tag = testPackageTag()
    const tagged = row({ metrc_package_tag: tag.toLowerCase(), metrc_unit: 'Grams' })
    const plain = row()
    const first = await rpc(admin.client, 'admin_import_products', { p_rows: [tagged, plain] })
    expect(first.error).toBeNull()
    expect(await packageOf(tagged.sku)).toEqual({ metrc_package_tag: tag, metrc_unit: 'Grams' })
    expect(await packageOf(plain.sku)).toEqual({ metrc_package_tag: null, metrc_unit: null })

    // An update that leaves the columns out keeps the package; one that gives them changes it.
    const next = testPackageTag()
    const second = await rpc(admin.client, 'admin_import_products', {
      p_rows: [
        { id: tagged.id, price: 21 },
        { id: plain.id, metrc_package_tag: next, metrc_unit: 'Each' },
      ],
    })
    expect(second.error).toBeNull()
    expect(await packageOf(tagged.sku)).toEqual({ metrc_package_tag: tag, metrc_unit: 'Grams' })
    expect(await packageOf(plain.sku)).toEqual({ metrc_package_tag: next, metrc_unit: 'Each' })
  })

  it('refuses a bad tag, a tag without its unit, a weighed unit without weight — naming the row, writing nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ metrc_package_tag: '1A4-NOT-A-TAG' }, /24-character UID/],
      [{ metrc_package_tag: testPackageTag(), metrc_unit: 'Bushels' }, /must be one of Each/],
      [{ metrc_package_tag: testPackageTag() }, /Choose the Metrc package's unit of measure/],
      [
        { metrc_package_tag: testPackageTag(), metrc_unit: 'Grams', weight_grams: null },
        /counted in Grams needs the product's weight/,
      ],
    ]
    for (const [extra, message] of cases) {
      const good = row()
      const bad = row(extra)
      const response = await admin.client.rpc('admin_import_products', { p_rows: [good, bad] })
      expect(response.error?.message).toMatch(new RegExp(`^Row 2 \\(SKU ${bad.sku}\\): `))
      expect(response.error?.message).toMatch(message)
      expect(response.status).toBe(400)
      expect(await packageOf(good.sku)).toBeUndefined()
    }
  })
})
