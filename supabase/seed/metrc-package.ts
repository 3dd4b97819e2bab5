// The demo catalogue's Metrc packages (issue 32, docs/decisions/054-metrc-sales-export.md): every cannabis product is
// sold from a package, so the demo's orders can be handed over and reported to Metrc.
import type { ProductSeed } from './catalogue.ts'

/**
 * The Metrc package a demo product is sold from: a UID of Metrc's shape (24 hexadecimal
 * characters, 1A4 first) made from the product's place in the catalogue; bulk goods are counted in
 * grams, packaged goods each. Merchandise has none: Metrc does not track it.
 */
export function metrcPackageOf(
  seed: ProductSeed,
  index: number,
  isCannabis: boolean,
): { metrc_package_tag: string | null; metrc_unit: string | null } {
  if (!isCannabis) return { metrc_package_tag: null, metrc_unit: null }
  const bulk = seed.type === 'Bulk Flower' || seed.type === 'Bulk Concentrates'
  return {
    metrc_package_tag: `1A4060300004D2E${(index + 1).toString(16).toUpperCase().padStart(9, '0')}`,
    metrc_unit: bulk && seed.weightGrams ? 'Grams' : 'Each',
  }
}
