// Who is calling, for rate limits and per-caller queues (issue 23, finding 4): one answer for the
// whole server. By default the socket's peer and never a header, since a client could forge one
// to dodge a limit or spend another's. Behind a reverse proxy on the same machine (Caddy, nginx)
// every request's peer is the proxy, so the whole shop would share one allowance: naming the
// proxy in HUMO_TRUSTED_PROXIES makes the server read X-Forwarded-For, but only the hops those
// proxies appended (walking from the right), never what the client wrote in front of them.
// Addresses are then keyed as the limits count them: IPv4-mapped IPv6 as IPv4, IPv6 by its /64
// (one subscriber gets a whole /64 to pick from).
import type { IncomingMessage } from 'node:http'
import { isIP, isIPv6 } from 'node:net'
import type { TLSSocket } from 'node:tls'

let trustedProxies: ReadonlySet<string> = new Set()

/**
 * HUMO_TRUSTED_PROXIES: unset for none; "loopback" for a proxy on this machine (127.0.0.1 and
 * ::1); or comma-separated IP addresses. Anything else stops the start with a clear message.
 */
export function parseTrustedProxies(value: string | undefined | null): string[] {
  const out: string[] = []
  for (const part of (value ?? '').split(',')) {
    const entry = part.trim().toLowerCase()
    if (entry === '') continue
    if (entry === 'loopback') out.push('127.0.0.1', '::1')
    else if (isIP(entry)) out.push(normalizeMapped(entry))
    else
      throw new Error(
        `HUMO_TRUSTED_PROXIES: "${part.trim()}" is not an IP address (or "loopback"); list the reverse proxies in front of this server, separated by commas`,
      )
  }
  return out
}

/** Which peers may tell the client's address (the process runs one shop; tests reset it). */
export function setTrustedProxies(addresses: readonly string[]): void {
  trustedProxies = new Set(addresses.map(normalizeMapped))
}

function normalizeMapped(address: string): string {
  const lowered = address.toLowerCase().replace(/%.*$/, '')
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lowered)?.[1] ?? lowered
}

/** The caller's address: the socket's peer, or the first hop a trusted proxy vouches for. */
export function peerAddress(req: IncomingMessage): string {
  const peer = req.socket?.remoteAddress
  if (!peer) return 'unknown'
  let address = normalizeMapped(peer)
  if (!trustedProxies.has(address)) return address
  const header = req.headers['x-forwarded-for']
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeMapped(hops[i]!.trim())
    if (!isIP(hop)) break // a malformed hop: nothing left of it can be believed
    address = hop
    if (!trustedProxies.has(hop)) break
  }
  return address
}

/** The key rate limits count a caller by: IPv4 as is, IPv6 by its /64. */
export function clientAddress(req: IncomingMessage): string {
  const address = peerAddress(req)
  if (!isIPv6(address)) return address
  const [head = '', tail = ''] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/**
 * How the caller reached the shop: over this server's own TLS, or over HTTPS to a trusted proxy
 * that says so in X-Forwarded-Proto. Anyone else's X-Forwarded-Proto is a claim, not a fact: it
 * must not turn on HSTS, nor change the addresses the server hands out.
 */
export function requestScheme(req: IncomingMessage): 'https' | 'http' {
  if ((req.socket as TLSSocket | undefined)?.encrypted) return 'https'
  const peer = req.socket?.remoteAddress
  if (!peer || !trustedProxies.has(normalizeMapped(peer))) return 'http'
  const header = req.headers['x-forwarded-proto']
  const first = String(Array.isArray(header) ? header[0] : (header ?? ''))
    .split(',')[0]
    ?.trim()
    .toLowerCase()
  return first === 'https' ? 'https' : 'http'
}
