import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import type { OrderNoticeDoc } from '../../../data/schemas/order-notice.schema'
import type { StatProduct } from '../order-stats'

/** A brand, category or product type as the selectors list and edit it. */
export type ReferenceItem = {
  id: string
  name: string
  description?: string | null
  displayOrder?: number | null
}

/** Every order on this device, newest first (null until the first read). */
export function useAdminOrders(): AdminOrderDoc[] | null {
  const { db } = useHumoData()
  const orders$ = useMemo(
    () =>
      db.admin_orders
        .find({ sort: [{ createdAt: 'desc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toMutableJSON()))),
    [db],
  )
  return useObservable<AdminOrderDoc[] | null>(orders$, null)
}

export function useOrderNotices(): OrderNoticeDoc[] {
  const { db } = useHumoData()
  const notices$ = useMemo(
    () =>
      db.order_notices
        .find({ selector: { dismissed: false }, sort: [{ createdAt: 'desc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toMutableJSON()))),
    [db],
  )
  return useObservable<OrderNoticeDoc[]>(notices$, [])
}

export type CatalogueProduct = StatProduct & {
  id: string
  name: string
  sku: string | null
  isFeatured: boolean
}

/** The active catalogue on this device, for figures (stats, low stock). */
export function useCatalogueProducts(): CatalogueProduct[] {
  const { db } = useHumoData()
  const products$ = useMemo(
    () =>
      db.products.find().$.pipe(
        map((docs) =>
          docs.map((d) => ({
            id: d.id,
            name: d.name,
            sku: d.sku ?? null,
            createdAt: d.createdAt,
            stock: d.stock ?? null,
            unlimited: d.unlimited,
            isFeatured: d.isFeatured,
          })),
        ),
      ),
    [db],
  )
  return useObservable<CatalogueProduct[]>(products$, [])
}

/** Brands, categories and product types as this device holds them (live). */
export function useReferenceLists() {
  const { db } = useHumoData()
  const lists$ = useMemo(
    () => ({
      brands: db.brands
        .find({ sort: [{ name: 'asc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toMutableJSON()))),
      categories: db.categories.find({ sort: [{ displayOrder: 'asc' }] }).$.pipe(
        map((docs) =>
          docs.map((d) => ({
            id: d.id,
            name: d.name,
            description: d.description ?? null,
            displayOrder: d.displayOrder,
          })),
        ),
      ),
      productTypes: db.product_types
        .find({ sort: [{ name: 'asc' }] })
        .$.pipe(
          map((docs) =>
            docs.map((d) => ({ id: d.id, name: d.name, description: d.description ?? null })),
          ),
        ),
    }),
    [db],
  )
  const brands = useObservable(lists$.brands, [])
  const categories = useObservable<ReferenceItem[]>(lists$.categories, [])
  const productTypes = useObservable<ReferenceItem[]>(lists$.productTypes, [])
  return { brands, categories, productTypes }
}
