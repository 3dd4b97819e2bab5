import { useMemo } from 'react'
import { combineLatest, map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { BrandDoc } from '../../../data/schemas/brand.schema'
import type { ProductDoc } from '../../../data/schemas/product.schema'

export type BrandShelf = { brand: BrandDoc; total: number; newest: ProductDoc[] }

/** The marketplace: every brand on the device with its product count and newest arrivals. */
export function useBrandDirectory(perBrand: number): BrandShelf[] | null {
  const { db } = useHumoData()
  const shelves$ = useMemo(
    () =>
      combineLatest([db.brands.find({ sort: [{ name: 'asc' }] }).$, db.products.find().$]).pipe(
        map(([brands, products]) => {
          const byBrand = new Map<string, ProductDoc[]>()
          for (const doc of products) {
            const product = doc.toJSON() as ProductDoc
            const id = product.brand?.id
            if (!id) continue
            const list = byBrand.get(id) ?? []
            list.push(product)
            byBrand.set(id, list)
          }
          return brands
            .map((doc) => {
              const list = (byBrand.get(doc.id) ?? []).sort((a, b) =>
                b.createdAt.localeCompare(a.createdAt),
              )
              return { brand: doc.toJSON(), total: list.length, newest: list.slice(0, perBrand) }
            })
            .filter((shelf) => shelf.total > 0)
        }),
      ),
    [db, perBrand],
  )
  return useObservable<BrandShelf[] | null>(shelves$, null)
}
