// The same compliance rules run in SQL (the server decides) and in TypeScript (the device
// previews): fed the same cases, both must give the same figures and texts (DESIGN.md §11,
// docs/decisions/051-california-taxes-and-daily-limits.md). Random cases from a seeded generator, so a failure replays.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeTaxes } from '../../../src/lib/california-tax'
import { DEFAULT_COMPLIANCE_RULES } from '../../../src/lib/compliance-defaults'
import { dailyLimitMessage, type LimitClass } from '../../../src/lib/daily-limits'
import { startRulesBackend, type RulesBackend } from './rules-backend'

let backend: RulesBackend

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const cents = fc.integer({ min: 0, max: 500_000 }).map((c) => c / 100)
const rate = fc.integer({ min: 0, max: 50_000 }).map((r) => r / 100_000)

describe('SQL and TypeScript agree', () => {
  it('on the built-in rules: the device’s defaults are the migration’s rows', async () => {
    const { rows } = await backend.db.query<{ doc: unknown }>(
      `select public.compliance_rules_document() as doc`,
    )
    // Less the rows a test server adds to hand off at any hour (fixtures/legal-hours.ts).
    const migrated = (rows[0]!.doc as { source: string | null }[]).filter(
      (row) => row.source !== 'Test server: hours set by the test',
    )
    expect(migrated).toEqual(
      [...DEFAULT_COMPLIANCE_RULES].sort(
        (a, b) => a.rule.localeCompare(b.rule) || a.effectiveFrom.localeCompare(b.effectiveFrom),
      ),
    )
  })

  it('on every tax line of a sale (order_taxes against computeTaxes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          cannabis: cents,
          other: cents,
          fee: fc.constantFrom(0, 5, 9.99, 19.99),
          exempt: fc.boolean(),
          excise: rate,
          sales: rate,
          local: fc.oneof(fc.constant(0), rate),
        }),
        async (c) => {
          const { rows } = await backend.db.query<{ t: { lines: unknown[] } }>(
            `select public.order_taxes($1, $2, $3, $4, $5, $6, $7, 'City cannabis business tax') as t`,
            [c.cannabis, c.other, c.fee, c.exempt, c.excise, c.sales, c.local],
          )
          const ts = computeTaxes(
            { cannabis: c.cannabis, other: c.other, deliveryFee: c.fee, salesTaxExempt: c.exempt },
            {
              excise: c.excise,
              sales: c.sales,
              local: c.local,
              localLabel: 'City cannabis business tax',
            },
          )
          expect(rows[0]!.t.lines).toEqual(ts.lines)
        },
      ),
      { numRuns: 300, seed: 20261128 },
    )
  })

  it('on the daily limit’s message (daily_limit_message against dailyLimitMessage)', async () => {
    const grams = fc.integer({ min: 0, max: 300_000 }).map((g) => g / 1000)
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<LimitClass>('flower', 'concentrate'),
        fc.constantFrom(28.5, 8, 226.8),
        grams,
        grams,
        async (limitClass, limit, already, thisOrder) => {
          const { rows } = await backend.db.query<{ m: string | null }>(
            `select public.daily_limit_message($1, $2, $3, $4) as m`,
            [limitClass, limit, already, thisOrder],
          )
          expect(rows[0]!.m).toBe(dailyLimitMessage(limitClass, limit, already, thisOrder))
        },
      ),
      { numRuns: 300, seed: 20261128 },
    )
  })
})
