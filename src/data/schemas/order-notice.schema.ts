/**
 * Notices for the person at this device: a status change of theirs that lost to a colleague's
 * (docs/decisions/004-order-status-conflicts.md). Local only; shown on the board until dismissed.
 */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const orderNoticeSchemaLiteral = {
  title: 'order notice',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 80 },
    orderId: { type: 'string' },
    attemptedFrom: { type: 'string' },
    attemptedTo: { type: 'string' },
    actualStatus: { type: 'string' },
    changedBy: { type: ['string', 'null'] },
    changedAt: { type: ['string', 'null'] },
    message: { type: 'string' },
    createdAt: { type: 'string', maxLength: 40 },
    dismissed: { type: 'boolean' },
  },
  required: [
    'id',
    'orderId',
    'attemptedFrom',
    'attemptedTo',
    'actualStatus',
    'message',
    'createdAt',
    'dismissed',
  ],
  indexes: ['createdAt'],
} as const

export const orderNoticeSchemaTyped = toTypedRxJsonSchema(orderNoticeSchemaLiteral)
export type OrderNoticeDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof orderNoticeSchemaTyped>
export const orderNoticeSchema: RxJsonSchema<OrderNoticeDoc> = orderNoticeSchemaTyped
