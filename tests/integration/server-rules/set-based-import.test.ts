// A 5,000-row Import Products (docs/decisions/031-set-based-import.md): still all-or-nothing with the same message
// naming the refused row, the change feed moved once the import is in, and a device pulling from
// its checkpoint before the import gets every imported product (new and updated) with its media.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createProduct,
  createUser,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'bulk-import@humo.test' })
})
afterAll(async () => {
  await backend?.close()
})

type PullRow = {
  id: string
  _modified: string
  _deleted: boolean
  price?: number
  product_media?: { media_url: string }[]
  product_effects?: { effect_name: string }[]
}
type Checkpoint = { modified: string; id: string } | null

/** Every page of the anonymous pull after a checkpoint, as a device's replication asks. */
async function pullFrom(checkpoint: Checkpoint) {
  const rows: PullRow[] = []
  let at = checkpoint
  for (;;) {
    const { data, error } = await rpc<{ rows: PullRow[] }>(backend.anon, 'pull_products', {
      after_modified: at?.modified ?? null,
      after_id: at?.id ?? null,
      max_rows: 2000,
    })
    expect(error).toBeNull()
    if (data!.rows.length === 0) return { rows, checkpoint: at }
    rows.push(...data!.rows)
    const last = data!.rows[data!.rows.length - 1]!
    at = { modified: last._modified, id: last.id }
  }
}

function rows(count: number, tag: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    is_new: true,
    sku: `BULK-${tag}-${i + 1}`,
    name: `Bulk ${tag} ${i + 1}`,
    price: 20,
    quantity_available: 3,
    effects: ['Calm'],
    media: [{ media_url: `bulk/${tag}-${i + 1}.png` }],
  }))
}

async function countOf(tag: string) {
  const { rows: found } = await backend.db.query<{ n: number }>(
    `select count(*)::int as n from public.products where sku like $1`,
    [`BULK-${tag}-%`],
  )
  return found[0]!.n
}

async function feed() {
  const { rows: found } = await backend.db.query<{ table_name: string; changed_at: string }>(
    `select table_name, changed_at::text from public.catalogue_changes`,
  )
  return Object.fromEntries(found.map((r) => [r.table_name, r.changed_at]))
}

describe('admin_import_products with 5,000 rows', () => {
  it('writes nothing when one row is refused, naming that row as before', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const batch = rows(5000, tag)
    batch[4320] = { ...batch[4320]!, price: -1 }
    const before = await feed()
    const { data, error } = await rpc(admin.client, 'admin_import_products', { p_rows: batch })
    expect(data).toBeNull()
    expect(error?.message).toBe(`Row 4321 (SKU BULK-${tag}-4321): Price must be at least 0`)
    expect(await countOf(tag)).toBe(0)
    const { rows: media } = await backend.db.query(
      `select 1 from public.product_media where media_url like $1`,
      [`bulk/${tag}-%`],
    )
    expect(media).toEqual([])
    expect(await feed()).toEqual(before)
  })

  it('moves the change feed and reaches a device pulling from its checkpoint', async () => {
    const existing = await createProduct(backend, { price: 10 })
    await backend.db.query(
      `insert into public.product_media (product_id, media_url, media_type, is_primary) values ($1, 'x.png', 'image', true)`,
      [existing.id],
    )
    const { checkpoint } = await pullFrom(null)
    const before = await feed()

    const tag = randomUUID().slice(0, 6).toUpperCase()
    const created = rows(4999, tag)
    const batch = [...created, { id: existing.id, price: 12.5 }]
    const { data, error } = await rpc<{ count: number; created: number; updated: number }>(
      admin.client,
      'admin_import_products',
      { p_rows: batch },
    )
    expect(error).toBeNull()
    expect(data).toMatchObject({ count: 5000, created: 4999, updated: 1 })
    expect(await countOf(tag)).toBe(4999)

    const after = await feed()
    for (const table of ['products', 'product_media', 'product_effects']) {
      expect(after[table]).toBeDefined()
      expect(after[table] !== before[table]).toBe(true)
    }

    const pulled = await pullFrom(checkpoint)
    const byId = new Map(pulled.rows.map((r) => [r.id, r]))
    for (const row of created) {
      const doc = byId.get(row.id)
      expect(doc?._deleted).toBe(false)
      expect(doc?.product_media?.map((m) => m.media_url)).toEqual([row.media[0]!.media_url])
      expect(doc?.product_effects?.map((e) => e.effect_name)).toEqual(['Calm'])
    }
    expect(byId.get(existing.id)).toMatchObject({ _deleted: false, price: 12.5 })
  })
})
