// A contact message is queued on the device and reaches the server through the RPC, once, even
// when the first attempt finds the backend unreachable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import { startContactOutbox } from '../../src/data/outbox/contact-outbox'
import { queueContactMessage } from '../../src/features/content/contact.actions'

let backend: TestBackend
beforeAll(async () => {
  backend = await startTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('contact outbox', () => {
  it('keeps a message written offline and sends it once the backend answers', async () => {
    const { db } = await createTestDatabase(undefined, ['contact_messages'])
    const offline = startContactOutbox(db, client('http://127.0.0.1:9', backend.anonKey))
    await queueContactMessage(db, {
      firstName: 'Lupe',
      lastName: 'Ortiz',
      email: 'lupe@example.com',
      phone: '',
      subject: 'Delivery to Berkeley?',
      message: 'Do you deliver to 94704?',
      newsletter: true,
    })
    await until(async () => ((await db.contact_messages.findOne().exec())?.attempts ?? 0) >= 1)
    offline.stop()
    const queued = await db.contact_messages.findOne().exec()
    expect(queued?.sync).toBe('queued')

    await queued!.incrementalPatch({ nextAttemptAt: 0 })
    const online = startContactOutbox(db, backend.anon)
    await until(async () => (await db.contact_messages.findOne().exec())?.sync === 'sent')
    await online.flush()
    online.stop()

    const { data, error } = await backend.service
      .from('contact_messages')
      .select('first_name, subject, newsletter')
      .eq('email', 'lupe@example.com')
    expect(error).toBeNull()
    expect(data).toEqual([
      { first_name: 'Lupe', subject: 'Delivery to Berkeley?', newsletter: true },
    ])
    await db.close()
  })
})
