import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { useHumoData } from '../../../data/data-context'
import { toaster } from '../../../ui/toaster'
import { downloadText, ordersToCsv, productsToCsv, today } from '../admin-csv'
import { DEVICE_COPY_NOTE, exportSource, notReadyMessage, type ExportSource } from '../export-wait'
import type { AdminProductsState } from './use-admin-products'
import type { AdminReplication } from './use-admin-replication'

/**
 * Export Products and Export Orders, and every order for the sales report: each waits for this
 * page's first pull, or says why it cannot yet (export-wait.ts, issue 25). Moved out of the
 * dashboard unchanged (issue 32 gave the dashboard roles to keep).
 */
export function useAdminExports(replication: AdminReplication, products: AdminProductsState) {
  const { db } = useHumoData()

  const exportReady = async (
    what: string,
    whenPulled: () => Promise<boolean>,
    heldBefore: () => boolean,
    pulledAlready: boolean,
  ): Promise<ExportSource | null> => {
    if (!pulledAlready && navigator.onLine)
      toaster.create({ type: 'info', title: `Loading the ${what} before the export…` })
    const source = await exportSource({ online: navigator.onLine, whenPulled, heldBefore })
    if (source === 'offline' || source === 'loading') {
      toaster.create({ type: 'error', ...notReadyMessage(source, what) })
      return null
    }
    return source
  }

  const exportProducts = async () => {
    const source = await exportReady(
      'products',
      replication.whenProductsPulled,
      () => replication.productsSynced,
      replication.productsPulled,
    )
    if (!source) return
    const rows = await products.load()
    downloadText(`humo-products-${today()}.csv`, productsToCsv(rows))
    toaster.create({
      type: 'success',
      title: `Exported ${rows.length} products`,
      description: source === 'device' ? DEVICE_COPY_NOTE : undefined,
    })
  }

  /** Every order for an export or a report, or null having said why not yet. */
  const ordersForExport = async (): Promise<{
    source: ExportSource
    all: AdminOrderDoc[]
  } | null> => {
    const source = await exportReady(
      'orders',
      replication.whenOrdersPulled,
      () => replication.ordersSynced,
      replication.ordersPulled,
    )
    if (!source) return null
    const docs = await db.admin_orders.find({ sort: [{ createdAt: 'desc' }] }).exec()
    return { source, all: docs.map((doc) => doc.toMutableJSON()) }
  }

  const exportOrders = async () => {
    const found = await ordersForExport()
    if (!found) return
    const { source, all } = found
    downloadText(`humo-orders-${today()}.csv`, ordersToCsv(all))
    toaster.create({
      type: 'success',
      title: `Exported ${all.length} orders`,
      description: source === 'device' ? DEVICE_COPY_NOTE : undefined,
    })
  }

  return { exportProducts, exportOrders, ordersForExport }
}
