import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { clientAddress, deviceKeys, waitText } from './rpc-rate-limits'

const from = (remoteAddress: string) =>
  ({ socket: { remoteAddress } }) as unknown as IncomingMessage

describe('clientAddress', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4 and IPv6 by its /64', () => {
    expect(clientAddress(from('203.0.113.7'))).toBe('203.0.113.7')
    expect(clientAddress(from('::ffff:203.0.113.7'))).toBe('203.0.113.7')
    expect(clientAddress(from('2001:db8:1:2:aaaa:bbbb:cccc:dddd'))).toBe('2001:db8:1:2::/64')
    // Another address in the same /64 is the same caller.
    expect(clientAddress(from('2001:0db8:0001:0002::1'))).toBe('2001:db8:1:2::/64')
    expect(clientAddress(from('2001:db8::1'))).toBe('2001:db8:0:0::/64')
    expect(clientAddress(from('::1'))).toBe('0:0:0:0::/64')
  })
})

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
