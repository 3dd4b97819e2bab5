// Contact Us messages: sent by shoppers through submit_contact_message (idempotent), read only
// by admins.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, startRulesBackend, type RulesBackend } from './rules-backend'

let backend: RulesBackend

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const message = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  subject: 'Delivery to Sausalito?',
  message: 'Do you deliver north of the bridge?',
  newsletter: true,
  ...overrides,
})

describe('submit_contact_message', () => {
  it('stores a message once however often it is sent, for admins to read', async () => {
    const input = message()
    const first = await backend.anon.rpc('submit_contact_message', { p: input })
    expect(first.error).toBeNull()
    const again = await backend.anon.rpc('submit_contact_message', { p: input })
    expect(again.data).toEqual(first.data)

    const anonRead = await backend.anon.from('contact_messages').select('id')
    expect(anonRead.data ?? []).toEqual([])

    const admin = await createUser(backend, { admin: true })
    const read = await admin.client
      .from('contact_messages')
      .select('id, first_name, subject, newsletter, read_at')
      .eq('id', input.id)
    expect(read.data).toEqual([
      {
        id: input.id,
        first_name: 'Ada',
        subject: 'Delivery to Sausalito?',
        newsletter: true,
        read_at: null,
      },
    ])
  })

  it.each([
    ['no email', { email: '' }, 'Email is required'],
    ['a bad email', { email: 'ada-at-example' }, 'Email must be a valid email address'],
    ['no subject', { subject: '  ' }, 'Subject is required'],
    ['no message', { message: undefined }, 'Message is required'],
    ['no id', { id: 'nope' }, 'Message id must be a UUID'],
  ])('refuses %s', async (_label, overrides, text) => {
    const { error } = await backend.anon.rpc('submit_contact_message', { p: message(overrides) })
    expect(error).toMatchObject({ code: '22023', message: text })
  })
})
