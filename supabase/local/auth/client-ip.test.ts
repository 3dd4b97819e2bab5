// @vitest-environment node
// The rate-limit key of a caller (issue 23, finding 4): the socket's address, IPv4 as is (also
// when IPv4-mapped), IPv6 by its /64 so one subscriber cannot walk its prefix to dodge a limit.
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { clientIp } from './auth-handler.ts'

const from = (remoteAddress: string | undefined) =>
  ({
    socket: { remoteAddress },
    headers: { 'x-forwarded-for': '1.2.3.4' },
  }) as unknown as IncomingMessage

describe('clientIp', () => {
  it('keys IPv4 by the address, never by a forwarded header', () => {
    expect(clientIp(from('203.0.113.7'))).toBe('203.0.113.7')
    expect(clientIp(from('::ffff:203.0.113.7'))).toBe('203.0.113.7')
    expect(clientIp(from(undefined))).toBe('unknown')
  })

  it('keys IPv6 by its /64', () => {
    expect(clientIp(from('2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:2::/64')
    expect(clientIp(from('2001:0db8:0001:0002:ffff:ffff:ffff:fffe'))).toBe('2001:db8:1:2::/64')
    expect(clientIp(from('2001:db8::1'))).toBe('2001:db8:0:0::/64')
    expect(clientIp(from('::1'))).toBe('0:0:0:0::/64')
    expect(clientIp(from('fe80::1%eth0'))).toBe('fe80:0:0:0::/64')
  })
})
