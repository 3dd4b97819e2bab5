// The server's front door when TLS is on (issue 27, docs/decisions/040-https-on-the-shops-network.md): one port that speaks
// HTTPS to browsers and, to a plain-HTTP request on that same port, answers with a redirect to
// its HTTPS address (the first byte of a connection tells them apart: a TLS handshake starts with
// 0x16, a request line with a letter). With the local authority (HUMO_TLS=local) it also serves
// the authority's certificate at /humo-ca.crt and the page explaining how to trust it at
// /humo-ca, over both, since a device that does not trust it yet reaches the shop over plain HTTP.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { SECURITY_HEADERS } from './security-headers.ts'
import type { LocalAuthority } from './tls.ts'

export type HumoTls = {
  key: string
  cert: string
  /** The local authority (HUMO_TLS=local): served at /humo-ca.crt, explained at /humo-ca. */
  ca?: LocalAuthority | null
  /** The names and addresses the certificate names (the page lists them as the shop's links). */
  names?: readonly string[]
  /**
   * Asked every `refreshMs`: a new key and certificate (the machine's addresses changed, or the
   * certificate nears its end) replace the ones served, for the connections after.
   */
  refresh?: () => Promise<{ key: string; cert: string } | null>
  refreshMs?: number
}

export const CA_CERT_PATH = '/humo-ca.crt'
export const CA_PAGE_PATH = '/humo-ca'

/** A connection that sends nothing is let go after this long (its first byte decides its way). */
const FIRST_BYTE_TIMEOUT_MS = 10_000

/** host[:port] as a browser sends it (a name, IPv4 or bracketed IPv6). */
const BROWSER_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
  head: boolean,
) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Security-Policy': PAGE_CSP,
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  })
  res.end(head ? undefined : body)
}

/** host:port the browser used, or null for a Host that is not one. */
function browserHost(req: IncomingMessage): string | null {
  const host = req.headers.host
  return host && BROWSER_HOST.test(host) ? host : null
}

const urlHost = (name: string) => (name.includes(':') ? `[${name}]` : name)

/** The page that tells a device how to trust the local authority (iPadOS, iOS, Android). */
export function authorityPage(ca: LocalAuthority, shopUrls: readonly string[]): string {
  const links = shopUrls
    .map((url) => `<li><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></li>`)
    .join('')
  const name = escapeHtml(ca.name)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust this shop's certificate — Humo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#14201a}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}code{word-break:break-all;background:#eef5f0;padding:.1rem .3rem;border-radius:.25rem}
.button{display:inline-block;padding:.75rem 1.25rem;background:#14532d;color:#fff;border-radius:.5rem;text-decoration:none;font-weight:600}
li{margin:.35rem 0}</style></head>
<body><main>
<h1>Trust this shop's certificate</h1>
<p>This shop makes its own HTTPS certificate, signed by <strong>${name}</strong>, an authority that lives on the shop's computer. Each tablet or phone trusts that authority once; after that the shop opens over HTTPS, works offline and can be installed.</p>
<p><a class="button" href="${CA_CERT_PATH}" download="humo-ca.crt">Download the certificate</a></p>
<p>Before you trust it, compare its SHA-256 fingerprint with the one your device shows:</p>
<p><code>${ca.fingerprint}</code></p>
<h2>iPad (iPadOS) and iPhone (iOS)</h2>
<ol>
<li>Open this page in <strong>Safari</strong> and tap <strong>Download the certificate</strong>. Tap <strong>Allow</strong> when Safari says the website is trying to download a configuration profile.</li>
<li>Open <strong>Settings</strong>, tap <strong>Profile Downloaded</strong> near the top (or <strong>General → VPN &amp; Device Management</strong>), tap <strong>${name}</strong>, then <strong>Install</strong>, and enter the passcode. Under <strong>More Details</strong> it shows the SHA-256 fingerprint: it must be the one above.</li>
<li>Go to <strong>Settings → General → About → Certificate Trust Settings</strong> and turn on full trust for <strong>${name}</strong>.</li>
<li>Open the shop at one of the addresses below.</li>
</ol>
<h2>Android</h2>
<ol>
<li>Tap <strong>Download the certificate</strong>; it is saved as humo-ca.crt.</li>
<li>Open <strong>Settings → Security &amp; privacy → More security settings → Encryption &amp; credentials → Install a certificate → CA certificate</strong> (the names differ a little between makers: search Settings for “CA certificate”), tap <strong>Install anyway</strong> and choose humo-ca.crt.</li>
<li>Check it under <strong>Trusted credentials → User</strong>: tap it, and the SHA-256 fingerprint must be the one above.</li>
<li>Open the shop in <strong>Chrome</strong> at one of the addresses below. (Firefox for Android needs Settings → About Firefox, tap the logo five times, then Secret Settings → “Use third party CA certificates”.)</li>
</ol>
<h2>The shop's addresses</h2>
<ul>${links}</ul>
</main></body></html>
`
}

/** Answers /humo-ca.crt and /humo-ca; false for any other path. */
function serveAuthority(
  req: IncomingMessage,
  res: ServerResponse,
  ca: LocalAuthority,
  shopUrls: (req: IncomingMessage) => string[],
): boolean {
  const path = (req.url ?? '/').split('?')[0]
  if (path !== CA_CERT_PATH && path !== CA_PAGE_PATH) return false
  const method = req.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD') {
    send(
      res,
      405,
      { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' },
      `${path} is read with GET\n`,
      false,
    )
    return true
  }
  if (path === CA_CERT_PATH)
    // DER: what iOS's profile installer and every Android version take as a CA certificate.
    send(
      res,
      200,
      {
        'Content-Type': 'application/x-x509-ca-cert',
        'Content-Disposition': 'attachment; filename="humo-ca.crt"',
        'Cache-Control': 'no-cache',
      },
      ca.der,
      method === 'HEAD',
    )
  else
    send(
      res,
      200,
      { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
      authorityPage(ca, shopUrls(req)),
      method === 'HEAD',
    )
  return true
}

/** A plain-HTTP request on the HTTPS port: to the same address over HTTPS. */
function redirectToHttps(req: IncomingMessage, res: ServerResponse): void {
  const host = browserHost(req)
  if (!host) {
    send(
      res,
      400,
      { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' },
      'This shop is served over HTTPS; the request has no valid Host header\n',
      false,
    )
    return
  }
  const target = `https://${host}${(req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/'}`
  const method = req.method ?? 'GET'
  // 301 for reads (what a typed address is); 308 keeps a POST a POST.
  send(
    res,
    method === 'GET' || method === 'HEAD' ? 301 : 308,
    { Location: target, 'Content-Type': 'text/plain; charset=utf-8' },
    `This shop is served over HTTPS: ${target}\n`,
    method === 'HEAD',
  )
  req.resume()
}

/**
 * An HTTP server, or with `tls` an HTTPS one that also takes plain HTTP on its port (answered by
 * a redirect, or by the authority's certificate and page). Either is used as node:http's Server:
 * the same request, upgrade and clientError events, listen, close and closeAllConnections.
 */
export function createHumoServer(tls: HumoTls | null, handler: RequestListener): Server {
  if (!tls) return createServer(handler)
  const ca = tls.ca ?? null
  const shopUrls = (req: IncomingMessage): string[] => {
    const port = (secure.address() as AddressInfo | null)?.port
    const given = browserHost(req)
    const names = [
      ...(given ? [given.replace(/:\d+$/, '')] : []),
      ...(tls.names ?? []).map(urlHost),
    ]
    return [...new Set(names.map((name) => `https://${name}${port ? `:${port}` : ''}/`))]
  }
  const secure = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (ca && serveAuthority(req, res, ca, shopUrls)) return
    handler(req, res)
  })
  const plain = createServer((req, res) => {
    if (ca && serveAuthority(req, res, ca, shopUrls)) return
    redirectToHttps(req, res)
  })
  plain.on('clientError', (_error, socket) => socket.destroy())
  // A WebSocket over plain HTTP: there is nothing to redirect it to that it would follow.
  plain.on('upgrade', (_req, socket: Socket) => socket.destroy())

  // node:tls starts its handshake on 'connection'; that listener now waits for the first byte.
  const startTls = secure.listeners('connection') as ((socket: Socket) => void)[]
  secure.removeAllListeners('connection')
  const waiting = new Set<Socket>()
  secure.on('connection', (socket: Socket) => {
    waiting.add(socket)
    const drop = () => socket.destroy()
    socket.once('error', drop)
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, drop)
    socket.once('close', () => waiting.delete(socket))
    socket.once('data', (chunk: Buffer) => {
      waiting.delete(socket)
      socket.pause()
      socket.setTimeout(0)
      socket.off('error', drop)
      // Given back to the stream: the TLS layer or the HTTP parser reads it first.
      socket.unshift(chunk)
      if (chunk[0] === 0x16) for (const listener of startTls) listener.call(secure, socket)
      else {
        plain.emit('connection', socket)
        socket.resume()
      }
    })
  })
  const closeAll = secure.closeAllConnections.bind(secure)
  secure.closeAllConnections = () => {
    closeAll()
    plain.closeAllConnections()
    for (const socket of waiting) socket.destroy()
  }

  if (tls.refresh) {
    const refresh = tls.refresh
    const timer = setInterval(
      () => {
        refresh().then(
          (next) => {
            if (next) secure.setSecureContext({ key: next.key, cert: next.cert })
          },
          (error: unknown) => console.warn('[humo-tls] renewing the certificate failed:', error),
        )
      },
      tls.refreshMs ?? 10 * 60_000,
    )
    timer.unref()
    secure.once('close', () => clearInterval(timer))
  }
  // node:https's Server is node:http's Server over TLS (the same events and methods).
  return secure
}

/** Whether a request came over this server's TLS. */
export const overTls = (req: IncomingMessage): boolean =>
  Boolean((req.socket as TLSSocket).encrypted)
