/**
 * The live code (Realtime), as one dynamic import for the same reason as `sync-modules.ts`: one
 * request instead of one per module. `humo-data.ts` imports it once the first catalogue pull is
 * done: the catalogue's change feed and the shopper's order tracking share its connection. Track
 * Order imports it when a shopper looks an order up.
 */
export { createChannelClient } from './realtime-client'
export { createRpcClient } from './backend-client'
export { CATALOGUE_TABLES, watchChanges } from './replication/live-changes'
export { startOrderTracking, trackOrder, watchOrderTopic } from './order-tracking'
