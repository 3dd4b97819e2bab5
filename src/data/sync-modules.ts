/**
 * The code that talks to the backend, as one dynamic import: each module imported on its own
 * became a chunk of its own (eight requests at every start, each costing the start's main thread
 * about a millisecond to issue). Imported by `humo-data.ts` once the device database is opening.
 */
export { createRpcClient } from './backend-client'
export { replicateCatalogue } from './replication/catalogue-replication'
export { startOrderOutbox } from './outbox/order-outbox'
export { startContactOutbox } from './outbox/contact-outbox'
