// `npm run seed`: (re)creates a data folder with the demo catalogue, or a large generated one for
// benchmarks: `npm run seed -- --products 10000 [--data-dir .humo-bench-data]`. Refuses to touch
// a data folder that already has a database unless --force is given (it is then replaced).
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { applySeed } from '../../seed/apply-seed.ts'
import { openDatabase } from '../db/database.ts'
import { keepNewFilesPrivate, makeShopPrivate } from '../db/private-files.ts'

const repo = fileURLToPath(new URL('../../..', import.meta.url))

async function main(): Promise<void> {
  // The data folder is its user's only, whatever the shell's umask (docs/decisions/052-private-data-folder.md).
  keepNewFilesPrivate()
  const { values } = parseArgs({
    options: {
      products: { type: 'string' },
      'data-dir': { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  })
  const dataDir = resolve(
    values['data-dir'] ?? process.env.HUMO_DATA_DIR ?? join(repo, '.humo-data'),
  )
  const products = values.products === undefined ? undefined : Number(values.products)
  if (products !== undefined && (!Number.isInteger(products) || products < 0))
    throw new Error('--products must be a whole number')

  makeShopPrivate(dataDir, null, (message) => console.warn(message))
  if (existsSync(join(dataDir, 'db'))) {
    if (!values.force)
      throw new Error(`${dataDir} already holds a database; pass --force to replace it`)
    await rm(join(dataDir, 'db'), { recursive: true, force: true })
    await rm(join(dataDir, 'storage'), { recursive: true, force: true })
  }
  const started = Date.now()
  const { db } = await openDatabase(join(dataDir, 'db'))
  try {
    const summary = await applySeed(
      db,
      join(dataDir, 'storage'),
      products === undefined ? {} : { products },
    )
    console.log(
      `Seeded ${summary.products} products into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
  } finally {
    await db.close()
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message)
  process.exit(1)
})
