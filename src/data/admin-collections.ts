/**
 * The admin's collections (the order board's orders, the admin catalogue and the notices of lost
 * status changes), with their conflict rule. Their own chunk: src/data/database.ts fetches it only
 * when a signed-in admin's device opens them, so a shopper's start never loads it.
 */
import type { HumoDatabase } from './database'
import { createAdminOrderConflictHandler } from './replication/admin-order-conflicts'
import { adminOrderMigrationStrategies, adminOrderSchema } from './schemas/admin-order.schema'
import { adminProductMigrationStrategies, adminProductSchema } from './schemas/admin-product.schema'
import { orderNoticeSchema } from './schemas/order-notice.schema'

export function adminCollectionDefinitions(db: HumoDatabase) {
  return {
    admin_orders: {
      schema: adminOrderSchema,
      migrationStrategies: adminOrderMigrationStrategies,
      conflictHandler: createAdminOrderConflictHandler((notice) => db.order_notices.insert(notice)),
    },
    admin_products: {
      schema: adminProductSchema,
      migrationStrategies: adminProductMigrationStrategies,
    },
    order_notices: { schema: orderNoticeSchema },
  }
}
