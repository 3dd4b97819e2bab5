import { useEffect, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { adminCollectionsOpen, openAdminCollections } from '../../../data/database'

/**
 * The storefront opens the device database without the admin's collections (a faster start);
 * the back office opens them before its dashboard reads them. A failure goes to the route's
 * error page rather than leaving the dashboard loading for ever.
 */
export function useAdminCollections(): boolean {
  const { db } = useHumoData()
  const [open, setOpen] = useState(() => adminCollectionsOpen(db))
  const [error, setError] = useState<Error | null>(null)
  if (error) throw error

  useEffect(() => {
    if (open) return
    let cancelled = false
    openAdminCollections(db).then(
      () => !cancelled && setOpen(true),
      (reason: unknown) =>
        !cancelled &&
        setError(reason instanceof Error ? reason : new Error('The admin data could not open')),
    )
    return () => {
      cancelled = true
    }
  }, [db, open])
  return open
}
