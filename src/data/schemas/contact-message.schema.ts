/**
 * Messages from the contact form, kept on the device until the server has them: the form never
 * loses a message to a bad connection. Sent by the contact outbox through
 * `submit_contact_message` (idempotent on the client-made id).
 */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const contactMessageSchemaLiteral = {
  title: 'contact message',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    subject: { type: 'string' },
    message: { type: 'string' },
    newsletter: { type: 'boolean' },
    sync: { type: 'string', enum: ['queued', 'sent', 'refused'], maxLength: 8 },
    attempts: { type: 'number' },
    nextAttemptAt: { type: 'number', minimum: 0, maximum: 1e15, multipleOf: 1 },
    lastError: { type: ['string', 'null'] },
    createdAt: { type: 'string', maxLength: 40 },
  },
  required: [
    'id',
    'firstName',
    'lastName',
    'email',
    'subject',
    'message',
    'newsletter',
    'sync',
    'attempts',
    'nextAttemptAt',
    'createdAt',
  ],
  indexes: ['sync', 'createdAt'],
} as const

export const contactMessageSchemaTyped = toTypedRxJsonSchema(contactMessageSchemaLiteral)
export type ContactMessageDoc = ExtractDocumentTypeFromTypedRxJsonSchema<
  typeof contactMessageSchemaTyped
>
export const contactMessageSchema: RxJsonSchema<ContactMessageDoc> = contactMessageSchemaTyped
