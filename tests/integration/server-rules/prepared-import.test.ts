// Import Products staged with the server's help and applied in steps (docs/decisions/047-import-checked-in-the-server-applied-in-steps.md): a row
// the server prepares is staged exactly as the database's own plain path stages it; the two
// functions the server calls as the database owner are not reachable through the API; and an
// anonymous catalogue read answered from the cache goes out while the import's apply transaction is
// open, showing the catalogue without the import.
import { randomUUID } from 'node:crypto'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareImportRow, runChunkedImport } from '../../../supabase/local/shop/import-products'
import {
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
  admin = await createUser(backend, { admin: true, email: 'prepared-import@humo.test' })
})
afterAll(async () => {
  await backend?.close()
})

const auth = () => ({
  role: 'authenticated' as const,
  claims: { role: 'authenticated', sub: admin.id },
})
const meta = { method: 'POST', path: '/rpc/admin_import_products', headers: {}, readOnly: false }

/** Rows of every shape the plain path takes, and a few it leaves to the row-by-row check. */
function variedRows(tag: string) {
  const media = (path: string) => [{ media_url: path }]
  return [
    { sku: `${tag}-1`, name: 'Crème Brûlée & Co', price: 12.345, media: media(' a.png ') },
    {
      id: randomUUID(),
      is_new: true,
      sku: ` ${tag}-2 `,
      name: ' Spaced  Name ',
      slug: 'Given Slug!',
      description: '  words  ',
      original_price: 20,
      quantity_available: 4,
      is_active: false,
      is_on_sale: true,
      is_featured: null,
      thc_percentage: 19.999,
      cbd_percentage: 0,
      total_cannabinoids_percentage: 100,
      smokeback_percentage: 0.5,
      weight_grams: 3.5,
      effects: [' Happy ', 'Calm', 'Happy', '', '  '],
      terpenes: [
        { name: 'Myrcene', percentage: 0.805 },
        { terpene_name: 'Pinene' },
        { name: 'Myrcene', percentage: 1 },
        { name: '' },
        'not an object',
      ],
      media: [
        { media_url: 'clip.MP4?x=1', is_primary: false, display_order: 5 },
        { media_url: 'b.png', media_type: 'image', is_primary: true },
        { media_url: 'c.webm', media_type: '' },
      ],
    },
    {
      sku: `${tag}-3`,
      name: 'Unlimited',
      is_unlimited_quantity: true,
      quantity_available: 'ignored when unlimited',
      effects: 'not a list',
      terpenes: [],
      media: media('d.png'),
    },
    { sku: `${tag}-4`, name: 'Brand empty', brand_id: '', media: media('e.png') },
    // Left to the database: a SKU given as a number, an effect that is not text.
    { sku: 12345, name: `Numbered ${tag}`, media: media('f.png') },
    { sku: `${tag}-6`, name: `Odd effect ${tag}`, effects: [1, 'Calm'], media: media('g.png') },
    ...factRows(tag, 7),
  ]
}

/**
 * Products with their facts (issue 31): three both plain paths take, and one whose grams only the
 * column's rounding makes more than nothing, which the server leaves to the database.
 */
function factRows(tag: string, first: number) {
  const media = (path: string) => [{ media_url: path }]
  return [
    {
      sku: `${tag}-${first}`,
      name: `Gummies ${tag}`,
      limit_class: 'concentrate',
      limit_grams: 0.1,
      thc_mg: 100,
      cbd_mg: 2.555,
      servings: 10,
      weight_grams: 50,
      media: media('h.png'),
    },
    {
      sku: `${tag}-${first + 1}`,
      name: `Bag ${tag}`,
      is_cannabis: false,
      limit_class: '',
      media: media('i.png'),
    },
    {
      sku: `${tag}-${first + 2}`,
      name: `Eighth ${tag}`,
      is_cannabis: true,
      limit_class: 'flower',
      weight_grams: 3.5,
      servings: null,
      media: media('j.png'),
    },
    {
      sku: `${tag}-${first + 3}`,
      name: `Crumb ${tag}`,
      limit_class: 'concentrate',
      limit_grams: 0.0005,
      media: media('k.png'),
    },
  ]
}

type Staged = {
  n: number
  sku: string
  slug: string
  creating: boolean
  is_insert: boolean
  fields: Record<string, unknown>
  effects: string[] | null
  terpenes: { name: string; percentage: number | null }[] | null
  media: Record<string, unknown>[] | null
}

/** The staged rows of an import, with the ids it made left out. */
async function stagedRows(db: PGlite | Transaction, importId: string): Promise<Staged[]> {
  const { rows } = await db.query<Staged>(
    `select n, sku, slug, creating, is_insert, fields, effects,
            (select jsonb_agg(jsonb_build_object('name', t ->> 'name',
                                                 'percentage', (t ->> 'percentage')::numeric(5, 2)))
               from jsonb_array_elements(r.terpenes) t) as terpenes,
            (select jsonb_agg(m - 'id') from jsonb_array_elements(r.media) m) as media
       from private.product_import_rows r where import_id = $1 order by n`,
    [importId],
  )
  return rows.map((r) => ({
    ...r,
    fields: Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, String(v)])),
  }))
}

async function openImport() {
  const { rows } = await backend.db.query<{ id: string }>(
    `select set_config('request.jwt.claims', $1, false), public.admin_import_begin() as id`,
    [JSON.stringify(auth().claims)],
  )
  return rows[0]!.id
}

describe('a prepared row', () => {
  it('is staged as the database stages it itself', async () => {
    const tag = `PRE-${randomUUID().slice(0, 6).toUpperCase()}`
    const rows = variedRows(tag)

    // The database's own staging (admin_import_stage, as admin_import_products runs it).
    const own = await openImport()
    await backend.db.query('select public.admin_import_stage($1, 1, $2::jsonb)', [
      own,
      JSON.stringify(rows),
    ])
    const expected = await stagedRows(backend.db, own)
    await backend.db.query('select public.admin_import_abort($1)', [own])

    // The server's, caught before its apply: its transaction is rolled back by a refusal there.
    let seen: Staged[] = []
    const spy = backend.db.transaction.bind(backend.db)
    const db = Object.create(backend.db) as PGlite
    db.transaction = (async (work: (tx: Transaction) => Promise<unknown>) =>
      spy(async (tx) => {
        const query = tx.query.bind(tx)
        tx.query = (async (sql: string, params?: unknown[]) => {
          if (sql.includes('product_import_apply_step') && params?.[2] === 1) {
            const { rows: open } = await query<{ id: string }>(
              'select id from private.product_imports order by started_at desc limit 1',
            )
            seen = await stagedRows(tx, open[0]!.id)
            throw new Error('stop before the apply')
          }
          return query(sql, params)
        }) as typeof tx.query
        return work(tx)
      })) as typeof db.transaction
    await expect(runChunkedImport(db, auth(), meta, rows, 4)).rejects.toThrow(
      'stop before the apply',
    )
    expect(seen).toHaveLength(rows.length)
    expect(seen).toEqual(expected)
  })
})

describe("a row's facts", () => {
  it('are taken by the plain paths where they plainly pass, in the same terms', async () => {
    const tag = `FCT-${randomUUID().slice(0, 6).toUpperCase()}`
    const rows = factRows(tag, 1)
    const prepared = rows.map((row, i) => prepareImportRow(row, i + 1))
    expect(prepared.map((row) => row !== null)).toEqual([true, true, true, false])
    expect(prepared[0]).toMatchObject({
      is_cannabis: null,
      limit_class: 'concentrate',
      limit_grams: 0.1,
      thc_mg: 100,
      cbd_mg: 2.555,
      servings: 10,
    })
    expect(prepared[1]).toMatchObject({ is_cannabis: false, limit_class: null })

    const own = await openImport()
    const { rows: careful } = await backend.db.query<{ n: number[] }>(
      'select public.product_import_stage_plain_rows($1, 1, $2::jsonb) as n',
      [own, JSON.stringify(rows)],
    )
    // The SQL path reads the grams as the column rounds them (0.001 g): plain too.
    expect(careful[0]!.n).toEqual([])
    const staged = await stagedRows(backend.db, own)
    await backend.db.query('select public.admin_import_abort($1)', [own])
    expect(staged.map((r) => r.fields)).toEqual([
      expect.objectContaining({
        is_cannabis: 'true',
        limit_class: 'concentrate',
        limit_grams: '0.1',
        thc_mg: '100',
        cbd_mg: '2.56',
        servings: '10',
      }),
      expect.objectContaining({ is_cannabis: 'false', limit_class: 'null', limit_grams: 'null' }),
      expect.objectContaining({ is_cannabis: 'true', limit_class: 'flower', servings: 'null' }),
      expect.objectContaining({ limit_class: 'concentrate', limit_grams: '0.001' }),
    ])
  })
})

describe('the steps the server runs as the database owner', () => {
  it('are not functions of the API, not even for an admin', async () => {
    const id = (await rpc<string>(admin.client, 'admin_import_begin')).data!
    const staged = await rpc(admin.client, 'product_import_stage_prepared', {
      p_import: id,
      p_first: 1,
      p_rows: [{ sku: 'X' }],
      p_prepared: [{ n: 1, product_id: randomUUID(), given_id: false, sku: 'X', name: 'X' }],
    })
    expect(staged.error).not.toBeNull()
    const applied = await rpc(admin.client, 'product_import_apply_step', {
      p_import: id,
      p_count: 0,
      p_step: 6,
    })
    expect(applied.error).not.toBeNull()
    const { rows } = await backend.db.query(
      'select 1 from private.product_import_rows where import_id = $1',
      [id],
    )
    expect(rows).toEqual([])
    await rpc(admin.client, 'admin_import_abort', { p_import: id })
  })
})

describe('an anonymous catalogue read during the apply', () => {
  it('is answered from the cache before the import commits, without the import', async () => {
    const tag = `APL-${randomUUID().slice(0, 6).toUpperCase()}`
    const url = `${backend.url}/rest/v1/products?select=sku&order=created_at.desc&limit=3`
    const read = async () => {
      const res = await fetch(url, { headers: { apikey: backend.anonKey } })
      return { at: performance.now(), body: await res.text() }
    }
    const before = (await read()).body
    await read() // cached, with its encoding made

    // When the apply's transaction is open (its first step sent, its commit not yet answered).
    let openedAt = Infinity
    let closedAt = -Infinity
    const transaction = backend.db.transaction.bind(backend.db)
    backend.db.transaction = (async (work: (tx: Transaction) => Promise<unknown>) => {
      let apply = false
      try {
        return await transaction(async (tx) => {
          const query = tx.query.bind(tx)
          tx.query = (async (sql: string, params?: unknown[]) => {
            if (/product_import_apply_step|admin_import_apply/.test(sql) && !apply) {
              apply = true
              openedAt = performance.now()
            }
            return query(sql, params)
          }) as typeof tx.query
          return work(tx)
        })
      } finally {
        if (apply) closedAt = performance.now()
      }
    }) as typeof backend.db.transaction

    try {
      let importing = true
      const reads: { at: number; body: string }[] = []
      const reader = (async () => {
        while (importing) reads.push(await read())
      })()
      const rows = Array.from({ length: 1500 }, (_, i) => ({
        sku: `${tag}-${i}`,
        name: `Apply ${tag} ${i}`,
        price: 5,
        effects: ['Calm', 'Happy'],
        terpenes: [{ name: 'Myrcene', percentage: 0.5 }],
        media: [{ media_url: `apply/${tag}-${i}.png` }],
      }))
      const imported = await rpc<{ count: number }>(admin.client, 'admin_import_products', {
        p_rows: rows,
      })
      importing = false
      await reader
      expect(imported.data?.count).toBe(1500)
      const during = reads.filter((r) => r.at > openedAt && r.at < closedAt)
      expect(during.length).toBeGreaterThan(0)
      expect(during.every((r) => r.body === before)).toBe(true)
      expect((await read()).body).toContain(tag)
    } finally {
      backend.db.transaction = transaction
    }
  })
})
