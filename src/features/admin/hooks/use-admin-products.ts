import { useCallback, useMemo, useRef } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { AdminProductDoc } from '../../../data/schemas/admin-product.schema'
import { adminProductDocToRow, type AdminProductRow } from '../admin-product'
import { useReferenceLists } from './use-admin-data'
import type { AdminReplication } from './use-admin-replication'

export type AdminProductsState = {
  /** Null while the device has no products and the first pull has not finished. */
  rows: AdminProductRow[] | null
  error: string | null
  /** Ask the server for changes now (after a save). */
  reload: () => void
  /** Every product, waiting for the first pull when the device has none yet. */
  load: () => Promise<AdminProductRow[]>
}

/**
 * The admin's product table, read from the device (`admin_products`, inactive products
 * included), newest first; it works offline once pulled, and follows the replication live.
 */
export function useAdminProducts(replication: AdminReplication): AdminProductsState {
  const { db } = useHumoData()
  const docs$ = useMemo(
    () =>
      db.admin_products
        .find({ sort: [{ createdAt: 'desc' }] })
        .$.pipe(map((found) => found.map((d) => d.toMutableJSON()))),
    [db],
  )
  const docs = useObservable<AdminProductDoc[] | null>(docs$, null)
  const lists = useReferenceLists()
  const names = useMemo(
    () =>
      new Map(
        [...lists.brands, ...lists.categories, ...lists.productTypes].map((r) => [r.id, r.name]),
      ),
    [lists.brands, lists.categories, lists.productTypes],
  )
  const rows = useMemo(() => {
    if (!docs || (docs.length === 0 && !replication.productsSynced)) return null
    return docs.map((doc) => adminProductDocToRow(doc, names))
  }, [docs, names, replication.productsSynced])

  const namesRef = useRef(names)
  namesRef.current = names
  const { whenProductsSynced } = replication
  const load = useCallback(async () => {
    await whenProductsSynced()
    const found = await db.admin_products.find({ sort: [{ createdAt: 'desc' }] }).exec()
    return found.map((d) => adminProductDocToRow(d.toMutableJSON(), namesRef.current))
  }, [db, whenProductsSynced])

  return { rows, error: replication.productsError, reload: replication.nudgeProducts, load }
}
