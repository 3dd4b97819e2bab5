// Records what admin_import_products does with each of import-parity-cases.ts's imports into
// import-parity-expected.json. Run once against the row-by-row import of decision 031 (it was, at
// 17eac52); the parity test then holds every later import to it.
// Run: npx tsx tests/integration/server-rules/import-parity-record.ts
import { writeFileSync } from 'node:fs'
import { createUser, rpc, startRulesBackend } from './rules-backend'
import { PARITY_CASES, paritySnapshot, seedParityCatalogue } from './import-parity-cases'

const backend = await startRulesBackend()
try {
  const admin = await createUser(backend, { admin: true, email: 'parity@humo.test' })
  await seedParityCatalogue(backend)
  const outcomes = []
  for (const c of PARITY_CASES) {
    const { data, error } = await rpc(admin.client, 'admin_import_products', { p_rows: c.rows })
    outcomes.push({
      name: c.name,
      error: error ? { message: error.message, code: error.code } : null,
      data,
      catalogue: await paritySnapshot(backend),
    })
  }
  writeFileSync(
    new URL('./import-parity-expected.json', import.meta.url),
    `${JSON.stringify(outcomes, null, 2)}\n`,
  )
} finally {
  await backend.close()
}
