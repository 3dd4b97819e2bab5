import { useMemo } from 'react'
import { catchError, map, of } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { liveResults } from '../../../data/live-query'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import type { MenuCategory } from '../../../lib/menu-categories'

export type MenuProducts =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; products: ProductDoc[] }

/**
 * The products of one menu, live from RxDB: a category menu reads through the categorySlug
 * index; "all" reads the whole collection. Filtering and sorting happen in memory (menu-filter).
 */
export function useMenuProducts(category: MenuCategory): MenuProducts {
  const { db } = useHumoData()
  const products$ = useMemo(() => {
    const query =
      category === 'all'
        ? db.products.find()
        : db.products.find({ selector: { categorySlug: category } })
    return liveResults(query).pipe(
      map((docs): MenuProducts => ({
        status: 'ready',
        products: docs.map((d) => d.toJSON() as ProductDoc),
      })),
      catchError((error: unknown) => {
        console.error('menu query failed', error)
        return of<MenuProducts>({ status: 'error' })
      }),
    )
  }, [db, category])
  return useObservable(products$, { status: 'loading' })
}
