// @vitest-environment node
// Who the rate limits count (issue 23, finding 4): the socket's peer, never a header the client
// wrote; IPv6 by its /64; behind a reverse proxy named in HUMO_TRUSTED_PROXIES, the hop that
// proxy vouches for.
import type { IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  clientAddress,
  parseTrustedProxies,
  peerAddress,
  setTrustedProxies,
} from './client-address'

const from = (remoteAddress: string | undefined, forwardedFor?: string) =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage

afterEach(() => setTrustedProxies([]))

describe('clientAddress', () => {
  it('keys IPv4 by the socket address, never by a forwarded header', () => {
    expect(clientAddress(from('203.0.113.7', '1.2.3.4'))).toBe('203.0.113.7')
    expect(clientAddress(from('::ffff:203.0.113.7'))).toBe('203.0.113.7')
    expect(clientAddress(from(undefined))).toBe('unknown')
  })

  it('keys IPv6 by its /64', () => {
    expect(clientAddress(from('2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:2::/64')
    expect(clientAddress(from('2001:0db8:0001:0002:ffff:ffff:ffff:fffe'))).toBe('2001:db8:1:2::/64')
    expect(clientAddress(from('2001:db8::1'))).toBe('2001:db8:0:0::/64')
    expect(clientAddress(from('::1'))).toBe('0:0:0:0::/64')
    expect(clientAddress(from('fe80::1%eth0'))).toBe('fe80:0:0:0::/64')
  })
})

describe('behind a trusted reverse proxy', () => {
  it('reads the hop the proxy appended, not what the client wrote in front of it', () => {
    setTrustedProxies(parseTrustedProxies('loopback'))
    expect(peerAddress(from('127.0.0.1', '198.51.100.9'))).toBe('198.51.100.9')
    expect(peerAddress(from('::ffff:127.0.0.1', '6.6.6.6, 198.51.100.9'))).toBe('198.51.100.9')
    expect(clientAddress(from('::1', '2001:db8:1:2::5'))).toBe('2001:db8:1:2::/64')
  })

  it('walks back through a chain of trusted proxies and stops at junk', () => {
    setTrustedProxies(parseTrustedProxies('127.0.0.1, 10.0.0.2'))
    expect(peerAddress(from('127.0.0.1', '198.51.100.9, 10.0.0.2'))).toBe('198.51.100.9')
    // A malformed hop ends the walk at the last hop a proxy vouched for.
    expect(peerAddress(from('127.0.0.1', 'evil, 10.0.0.2'))).toBe('10.0.0.2')
    expect(peerAddress(from('127.0.0.1', ''))).toBe('127.0.0.1')
    expect(peerAddress(from('127.0.0.1'))).toBe('127.0.0.1')
  })

  it('ignores the header from any peer that is not a trusted proxy', () => {
    setTrustedProxies(parseTrustedProxies('10.0.0.2'))
    expect(peerAddress(from('203.0.113.7', '198.51.100.9'))).toBe('203.0.113.7')
  })

  it('reads HUMO_TRUSTED_PROXIES strictly', () => {
    expect(parseTrustedProxies(undefined)).toEqual([])
    expect(parseTrustedProxies(' ')).toEqual([])
    expect(parseTrustedProxies('loopback, 10.0.0.2')).toEqual(['127.0.0.1', '::1', '10.0.0.2'])
    expect(() => parseTrustedProxies('caddy')).toThrow(/HUMO_TRUSTED_PROXIES/)
    expect(() => parseTrustedProxies('10.0.0.0/8')).toThrow(/not an IP address/)
  })
})
