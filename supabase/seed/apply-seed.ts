// Loads the demo catalogue into a database and its cover images into the storage folder. Used
// by the embedded backend on first start and by `npm run seed`. Runs as the database owner
// (not through the API), in one transaction, so a failed seed leaves no half catalogue.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { buildCatalogue, type CatalogueRows } from './build-catalogue.ts'

export const MEDIA_BUCKET = 'product_media'

export interface SeedSummary {
  products: number
  files: number
}

const IDENT = /^[a-z_][a-z0-9_]*$/

async function insertRows(
  tx: Transaction,
  table: string,
  rows: Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  for (const name of [table, ...columns])
    if (!IDENT.test(name)) throw new Error(`Unexpected identifier ${name}`)
  const list = columns.map((c) => `"${c}"`).join(', ')
  // One statement per table: the rows travel as a single JSON parameter typed by the table itself.
  await tx.query(
    `insert into public."${table}" (${list}) select ${list} from jsonb_populate_recordset(null::public."${table}", $1::jsonb)`,
    [JSON.stringify(rows)],
  )
}

export async function applySeed(
  db: PGlite,
  storageDir: string,
  options: { products?: number } = {},
): Promise<SeedSummary> {
  const rows: CatalogueRows = buildCatalogue(options)
  const bucketDir = join(storageDir, MEDIA_BUCKET)
  for (const file of rows.files) {
    const target = join(bucketDir, ...file.path.split('/'))
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, file.contents)
  }
  await db.transaction(async (tx) => {
    await insertRows(tx, 'categories', rows.categories)
    await insertRows(tx, 'brands', rows.brands)
    await insertRows(tx, 'product_types', rows.productTypes)
    await insertRows(tx, 'products', rows.products)
    await insertRows(tx, 'product_media', rows.media)
    await insertRows(tx, 'product_effects', rows.effects)
    await insertRows(tx, 'terpene_profiles', rows.terpenes)
    await tx.query(
      `insert into storage.objects (bucket_id, name, metadata)
       select $1, f->>'path', jsonb_build_object('mimetype', f->>'contentType', 'size', (f->>'size')::bigint, 'cacheControl', 'max-age=3600')
         from jsonb_array_elements($2::jsonb) f
       on conflict (bucket_id, name) do nothing`,
      [
        MEDIA_BUCKET,
        JSON.stringify(
          rows.files.map((f) => ({
            path: f.path,
            contentType: f.contentType,
            size: Buffer.byteLength(f.contents),
          })),
        ),
      ],
    )
  })
  return { products: rows.products.length, files: rows.files.length }
}
