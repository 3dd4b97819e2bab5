/**
 * The admin domain's writes to the device database that belong to no sub-domain: signing out.
 * The order board's writes are in orders/orders.actions.ts.
 */
import { clearAdminData, type HumoDatabase } from '../../data/database'

/** Signing out: orders and notices (customer data) leave the device. */
export async function removeAdminData(db: HumoDatabase) {
  await clearAdminData(db)
}
