// Helpers for the California sale specs (issue 31): a medical patient past the age gate, test
// products of the spec's own (so no other spec's stock or daily limit is touched), and the money
// rows a summary shows, read as the shopper reads them.
import { randomUUID } from 'node:crypto'
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { adminClient } from './admin'
import { AGE_VERIFIED_KEY } from './storefront'

/** The age gate's answer for a medical patient 18 or older (src/lib/visitor-kind.ts). */
export async function passAgeGateAsPatient(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript((key) => window.localStorage.setItem(key, 'medical'), AGE_VERIFIED_KEY)
}

/** A Metrc package UID of the right shape (24 hexadecimal characters, 1A4 first), new each time. */
export const testPackageTag = (): string =>
  `1A4${randomUUID().replace(/-/g, '').toUpperCase().slice(0, 21)}`

export type TestProduct = { id: string; name: string; slug: string }

/**
 * A product of the test's own, in stock: an edible (cannabis, no daily limit of its own) or
 * 3.5 g of flower counted toward the flower limit.
 */
export async function createProduct(
  baseURL: string,
  kind: 'edible' | 'flower',
  price: number,
): Promise<TestProduct> {
  const admin = await adminClient(baseURL)
  const slugOf = kind === 'flower' ? 'flower' : 'edibles'
  const category = await admin
    .from('categories')
    .select('id')
    .eq('slug', slugOf)
    .single<{ id: string }>()
  if (category.error) throw category.error
  const tag = randomUUID().slice(0, 8)
  const name = kind === 'flower' ? `Golden State Kush ${tag}` : `Sunset Citrus Chews ${tag}`
  const slug = name.toLowerCase().replace(/\s+/g, '-')
  const saved = await admin.rpc('admin_save_product', {
    p_product: {
      sku: `CA-${tag}`,
      name,
      slug,
      price,
      quantity_available: 500,
      category_id: category.data.id,
      weight_grams: kind === 'flower' ? 3.5 : null,
      media: [{ media_url: 'seed/flower-1.png' }],
      // The Metrc package it is sold from (docs/decisions/054-metrc-sales-export.md): without one it cannot be handed over.
      metrc_package_tag: testPackageTag(),
      metrc_unit: 'Each',
    },
  })
  if (saved.error) throw saved.error
  const id = (saved.data as { id: string }).id
  // What the law needs to know of it (migration 20261128100100), set as staff would.
  const facts = await admin
    .from('products')
    .update({ is_cannabis: true, limit_class: kind === 'flower' ? 'flower' : null })
    .eq('id', id)
  if (facts.error) throw facts.error
  return { id, name, slug }
}

export async function deleteProducts(baseURL: string, products: (TestProduct | undefined)[]) {
  const admin = await adminClient(baseURL)
  for (const product of products)
    if (product) await admin.rpc('admin_delete_product', { p_id: product.id })
}

/** A US phone number no other run has used today, so today's limits start from nothing. */
export function freshPhone(): { digits: string; written: string; writtenOtherwise: string } {
  const n = String(Math.floor(Math.random() * 1e7)).padStart(7, '0')
  const digits = `213${n}`
  return {
    digits,
    written: `(213) ${n.slice(0, 3)}-${n.slice(3)}`,
    writtenOtherwise: `+1 213.${n.slice(0, 3)}.${n.slice(3)}`,
  }
}

/** "$1,234.56" or "-$1.00" → cents; "Free" → 0. */
export function cents(text: string): number {
  const trimmed = text.trim()
  if (trimmed === 'Free') return 0
  const match = /^(-?)\$([\d,]+\.\d\d)$/.exec(trimmed)
  if (!match) throw new Error(`not an amount: ${text}`)
  return (match[1] ? -1 : 1) * Math.round(Number(match[2]!.replace(/,/g, '')) * 100)
}

/** The summary's money rows in order, label → shown value, the total last. */
export async function moneyRows(summary: Locator): Promise<[string, string][]> {
  await expect(summary.locator('dl dt').first()).toBeVisible()
  const labels = await summary.locator('dl dt').allInnerTexts()
  const values = await summary.locator('dl dd').allInnerTexts()
  return labels.map((label, i) => [label.trim(), (values[i] ?? '').trim()])
}

/**
 * The rows above the total add up to it, to the cent (each tax on its own line); answers the
 * rows for further checks.
 */
export async function expectLinesAddUp(summary: Locator): Promise<Map<string, string>> {
  const rows = await moneyRows(summary)
  const total = rows.at(-1)!
  expect(total[0]).toMatch(/^Total/)
  const sum = rows.slice(0, -1).reduce((n, [, value]) => n + cents(value), 0)
  expect(sum, `${rows.map((r) => r.join(' ')).join(', ')}`).toBe(cents(total[1]))
  return new Map(rows)
}
