/**
 * The code that talks to the backend, as one dynamic import: each module imported on its own
 * became a chunk of its own (eight requests at every start, each costing the start's main thread
 * 0.4–0.9 ms to issue, docs/decisions/017-fewer-chunks-at-a-start.md). Imported by `humo-data.ts` while the device database opens.
 */
export { createRpcClient } from './backend-client'
export { replicateCatalogue } from './replication/catalogue-replication'
export { startOrderOutbox } from './outbox/order-outbox'
export { startContactOutbox } from './outbox/contact-outbox'
