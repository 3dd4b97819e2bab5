/**
 * The live change feed's code (Realtime), as one dynamic import for the same reason as
 * `sync-modules.ts`: one request instead of one per module. `humo-data.ts` imports it once the
 * first catalogue pull is done.
 */
export { createChannelClient } from './realtime-client'
export { CATALOGUE_TABLES, watchChanges } from './replication/live-changes'
