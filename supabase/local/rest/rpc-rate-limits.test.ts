import { describe, expect, it } from 'vitest'
import { deviceKeys, waitText } from './rpc-rate-limits'

describe('deviceKeys', () => {
  const anon = { auth: { role: 'anon' as const, claims: {} } }
  it('names a person by email (any case) and phone digits, and a signed-in user by id', () => {
    expect(deviceKeys(anon, { email: ' Ada@Example.COM ', phone: '+1 (415) 555-0134' })).toEqual([
      'email:ada@example.com',
      'phone:4155550134',
    ])
    expect(
      deviceKeys({ auth: { role: 'authenticated', claims: { sub: 'u1' } } }, { email: 'a@b.c' }),
    ).toEqual(['user:u1', 'email:a@b.c'])
  })
  it('ignores what is not text and phones too short to name anyone', () => {
    expect(deviceKeys(anon, { email: 42, phone: '12' })).toEqual([])
    expect(deviceKeys(anon, null)).toEqual([])
  })
})

describe('waitText', () => {
  it('says seconds under a minute, else whole minutes rounded up', () => {
    expect(waitText(1)).toBe('1 second')
    expect(waitText(45)).toBe('45 seconds')
    expect(waitText(60)).toBe('1 minute')
    expect(waitText(61)).toBe('2 minutes')
    expect(waitText(3600)).toBe('60 minutes')
  })
})
