/**
 * The contact form's only write: the message goes onto the device first and the contact outbox
 * sends it, so a message written offline is sent when the shop is back online.
 */
import type { HumoDatabase } from '../../data/database'
import type { ContactMessage } from './components/contact-page'

/** Queues the message; its id lets the form follow what the outbox does with it. */
export async function queueContactMessage(
  db: HumoDatabase,
  message: ContactMessage,
): Promise<string> {
  const id = crypto.randomUUID()
  await db.contact_messages.insert({
    id,
    firstName: message.firstName.trim(),
    lastName: message.lastName.trim(),
    email: message.email.trim(),
    phone: message.phone.trim(),
    subject: message.subject.trim(),
    message: message.message.trim(),
    newsletter: message.newsletter,
    sync: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: new Date().toISOString(),
  })
  return id
}
