// Import Products staged in chunks and applied in one short transaction (docs/decisions/033-staged-import.md): the
// shop answers while an import runs, a refusal anywhere writes nothing and leaves nothing staged,
// two admins importing at once each get their own rows, and only the admin who opened an import
// can stage into it or apply it.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUser,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser
let otherAdmin: TestUser
let shopper: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'staged-import@humo.test' })
  otherAdmin = await createUser(backend, { admin: true, email: 'staged-import-2@humo.test' })
  shopper = await createUser(backend)
})
afterAll(async () => {
  await backend?.close()
})

function rows(count: number, tag: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    is_new: true,
    sku: `STG-${tag}-${i + 1}`,
    name: `Staged ${tag} ${i + 1}`,
    price: 12,
    quantity_available: 4,
    effects: ['Calm', 'Happy'],
    terpenes: [{ name: 'Myrcene', percentage: 0.4 }],
    media: [{ media_url: `staged/${tag}-${i + 1}.png` }],
  }))
}

async function countOf(tag: string) {
  const { rows: found } = await backend.db.query<{ n: number }>(
    `select count(*)::int as n from public.products where sku like $1`,
    [`STG-${tag}-%`],
  )
  return found[0]!.n
}

async function staged() {
  const { rows: found } = await backend.db.query<{ imports: number; rows: number }>(
    `select (select count(*) from private.product_imports)::int as imports,
            (select count(*) from private.product_import_rows)::int as rows`,
  )
  return found[0]!
}

describe('a long import', () => {
  it('lets a read sent while it runs be answered before it ends, seeing none of it', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const done: string[] = []
    const importing = rpc<{ count: number }>(admin.client, 'admin_import_products', {
      p_rows: rows(3000, tag),
    }).then((result) => {
      done.push('import')
      return result
    })
    // Sent once the server has begun staging the import's rows.
    while ((await staged()).rows === 0 && done.length === 0) {
      await new Promise((r) => setTimeout(r, 20))
    }
    const { data: seen, error } = await shopper.client
      .from('products')
      .select('sku')
      .like('sku', `STG-${tag}-%`)
    done.push('read')
    expect(error).toBeNull()
    expect(seen).toEqual([])

    const imported = await importing
    expect(imported.error).toBeNull()
    expect(imported.data?.count).toBe(3000)
    expect(done).toEqual(['read', 'import'])
    expect(await countOf(tag)).toBe(3000)
    expect(await staged()).toEqual({ imports: 0, rows: 0 })
  })

  it('writes nothing and keeps nothing staged when its last row of 5,000 is refused', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const batch = rows(5000, tag)
    batch[4999] = { ...batch[4999]!, price: -1 }
    const { data, error } = await rpc(admin.client, 'admin_import_products', { p_rows: batch })
    expect(data).toBeNull()
    expect(error?.message).toBe(`Row 5000 (SKU STG-${tag}-5000): Price must be at least 0`)
    expect(await countOf(tag)).toBe(0)
    expect(await staged()).toEqual({ imports: 0, rows: 0 })
  })
})

describe('two admins importing at once', () => {
  it("keeps each import's rows to itself", async () => {
    const [tagA, tagB] = [
      randomUUID().slice(0, 6).toUpperCase(),
      randomUUID().slice(0, 6).toUpperCase(),
    ]
    const [a, b] = await Promise.all([
      rpc<{ count: number; ids: string[] }>(admin.client, 'admin_import_products', {
        p_rows: rows(700, tagA),
      }),
      rpc<{ count: number; ids: string[] }>(otherAdmin.client, 'admin_import_products', {
        p_rows: rows(700, tagB),
      }),
    ])
    expect([a.error, b.error]).toEqual([null, null])
    expect([a.data?.count, b.data?.count]).toEqual([700, 700])
    expect(new Set([...a.data!.ids, ...b.data!.ids]).size).toBe(1400)
    // Every product has its own media, effects and terpene, nobody else's.
    const { rows: mixed } = await backend.db.query(
      `select p.sku from public.products p
        where (p.sku like 'STG-' || $1 || '-%' or p.sku like 'STG-' || $2 || '-%')
          and ((select count(*) from public.product_media m where m.product_id = p.id) <> 1
            or (select count(*) from public.product_effects e where e.product_id = p.id) <> 2
            or (select count(*) from public.terpene_profiles t where t.product_id = p.id) <> 1
            or not exists (select 1 from public.product_media m
                            where m.product_id = p.id and m.media_url = 'staged/' || substr(p.sku, 5) || '.png'))`,
      [tagA, tagB],
    )
    expect(mixed).toEqual([])
    expect(await staged()).toEqual({ imports: 0, rows: 0 })
  })

  it('refuses the second of two imports creating the same SKU, as one after the other would', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const first = rows(400, tag)
    const second = rows(400, `${tag}B`)
    second[399] = { ...second[399]!, sku: first[0]!.sku }
    const results = await Promise.all([
      rpc(admin.client, 'admin_import_products', { p_rows: first }),
      rpc(otherAdmin.client, 'admin_import_products', { p_rows: second }),
    ])
    const refused = results.filter((r) => r.error)
    expect(refused.map((r) => r.error?.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Row (1|400) \\(SKU STG-${tag}-1\\): SKU STG-${tag}-1 already exists for another product$`,
        ),
      ),
    ])
    const { rows: found } = await backend.db.query(
      `select 1 from public.products where sku = $1 and not _deleted`,
      [first[0]!.sku],
    )
    expect(found).toHaveLength(1)
    expect(await staged()).toEqual({ imports: 0, rows: 0 })
  })
})

describe('the steps of an import', () => {
  it('are for the admin who opened it only', async () => {
    const opened = await rpc<string>(admin.client, 'admin_import_begin')
    expect(opened.error).toBeNull()
    const id = opened.data!
    const chunk = rows(2, randomUUID().slice(0, 6).toUpperCase())

    const byShopper = await rpc(shopper.client, 'admin_import_stage', {
      p_import: id,
      p_first: 1,
      p_rows: chunk,
    })
    expect(byShopper.error?.code).toBe('42501')
    expect((await rpc(shopper.client, 'admin_import_begin')).error?.code).toBe('42501')
    expect(
      (await rpc(backend.anon, 'admin_import_apply', { p_import: id, p_count: 0 })).error,
    ).not.toBeNull()

    const byOther = await rpc(otherAdmin.client, 'admin_import_stage', {
      p_import: id,
      p_first: 1,
      p_rows: chunk,
    })
    expect(byOther.error?.message).toBe(`Import ${id} is not open`)
    const applyByOther = await rpc(otherAdmin.client, 'admin_import_apply', {
      p_import: id,
      p_count: 0,
    })
    expect(applyByOther.error?.message).toBe(`Import ${id} is not open`)

    const { error: read } = await shopper.client.from('product_import_rows').select('*')
    expect(read).not.toBeNull()

    const mine = await rpc<number>(admin.client, 'admin_import_stage', {
      p_import: id,
      p_first: 1,
      p_rows: chunk,
    })
    expect(mine).toEqual({ data: 2, error: null })
    const early = await rpc(admin.client, 'admin_import_apply', { p_import: id, p_count: 3 })
    expect(early.error?.message).toBe(`Import ${id} has 2 of 3 rows staged`)
    const applied = await rpc<{ count: number }>(admin.client, 'admin_import_apply', {
      p_import: id,
      p_count: 2,
    })
    expect(applied.data?.count).toBe(2)
    expect(
      (await rpc(admin.client, 'admin_import_apply', { p_import: id, p_count: 2 })).error?.message,
    ).toBe(`Import ${id} is not open`)
  })

  it('drops an import left open for a quarter of an hour when another begins', async () => {
    const opened = await rpc<string>(admin.client, 'admin_import_begin')
    const id = opened.data!
    await rpc(admin.client, 'admin_import_stage', {
      p_import: id,
      p_first: 1,
      p_rows: rows(3, randomUUID().slice(0, 6).toUpperCase()),
    })
    await backend.db.query(
      `update private.product_imports set touched_at = touched_at - interval '16 minutes' where id = $1`,
      [id],
    )
    const next = await rpc<string>(otherAdmin.client, 'admin_import_begin')
    expect(next.error).toBeNull()
    const { rows: left } = await backend.db.query(
      `select (select count(*) from private.product_imports where id = $1)::int as imports,
              (select count(*) from private.product_import_rows where import_id = $1)::int as rows`,
      [id],
    )
    expect(left[0]).toEqual({ imports: 0, rows: 0 })
    await rpc(otherAdmin.client, 'admin_import_abort', { p_import: next.data })
    expect(await staged()).toEqual({ imports: 0, rows: 0 })
  })
})
