// Headers every answer of the embedded server carries (issue 23, finding 6; docs/decisions/028-content-security-policy.md).
// The shop and its admin may not be framed by another site (clickjacking), nothing is
// content-sniffed into a type the server did not say, the Referer leaks no paths to other
// origins, and the page asks for no device features it does not use. HSTS only when the request
// came over HTTPS (directly or through a reverse proxy that says so): on plain HTTP the header is
// ignored, and sending it from a shop's test setup would pin browsers to HTTPS.
// The app's pages get a Content-Security-Policy whose scripts are the origin's files and the
// inline scripts of the built index.html, named by their SHA-256 (computed from the file the
// server sends, again whenever it is rebuilt): no 'unsafe-inline', so a script smuggled into a
// page (a product's text, a guest's name) does not run. API answers are data, never documents:
// "default-src 'none'". Storage answers add their own stricter policy (storage-files.ts).
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { requestScheme } from './client-address.ts'

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  // For browsers without CSP's frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=()',
}

export const HSTS = 'max-age=31536000; includeSubDomains'

/** The API's answers are JSON (or media), never a page: nothing may load or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'"

/** What the build says the app talks to besides this server (vite.config.ts, cspSources). */
export const CSP_SOURCES_FILE = join('.vite', 'csp-sources.json')
export type CspSources = { backendOrigin: string | null }

const CSP_HEADER = 'Content-Security-Policy'

/**
 * Script types a browser runs (HTML's JavaScript MIME types, and modules); anything else, such
 * as JSON-LD's application/ld+json, is a data block that CSP does not govern.
 */
const RUNS =
  /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/javascript1\.[0-5]|text\/(jscript|livescript))$/

function attribute(attributes: string, name: string): string | null {
  const found = new RegExp(
    `(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`,
    'i',
  ).exec(attributes)
  if (found) return found[1] ?? found[2] ?? found[3] ?? ''
  return new RegExp(`(?:^|\\s)${name}(?:\\s|$)`, 'i').test(attributes) ? '' : null
}

/**
 * The CSP sources (`'sha256-…'`) of every inline script in `html` a browser would run: its text
 * as the parser gives it, which is what the browser hashes: not entity-decoded, but with line
 * breaks made \n (a checkout with Windows line endings builds an index.html with \r\n).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const [, attributes = '', text = ''] of html.matchAll(
    /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi,
  )) {
    if (attribute(attributes, 'src') !== null) continue
    const type = (attribute(attributes, 'type') ?? '').trim().toLowerCase()
    if (!RUNS.test(type)) continue
    const parsed = text.replace(/\r\n?/g, '\n')
    hashes.add(`'sha256-${createHash('sha256').update(parsed, 'utf8').digest('base64')}'`)
  }
  return [...hashes]
}

/** host[:port] as a browser sends it; anything else is left out of the policy. */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/** http(s)://host → itself and its ws(s):// twin (Realtime); nothing for anything else. */
function originSources(raw: string | null | undefined): string[] {
  if (!raw) return []
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return []
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return []
  return [url.origin, url.origin.replace(/^http/, 'ws')]
}

export type PagePolicyOptions = {
  /** `'sha256-…'` sources of the inline scripts the page may run. */
  scriptHashes: readonly string[]
  /** The Host the browser reached this server at; its ws:/wss: are allowed for Realtime. */
  host?: string | null
  /** A hosted Supabase the build talks to instead of this server (VITE_SUPABASE_URL). */
  backendOrigin?: string | null
}

/** The policy of the app's pages (docs/decisions/028-content-security-policy.md explains each directive). */
export function pagePolicy({ scriptHashes, host, backendOrigin }: PagePolicyOptions): string {
  const backend = originSources(backendOrigin)
  const [backendHttp = null] = backend
  // 'self' covers ws:/wss: of the same host in CSP Level 3; named too for browsers before it.
  const realtime = host && HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : []
  const list = (...sources: (string | null)[]) => sources.filter(Boolean).join(' ')
  return [
    "default-src 'self'",
    `script-src ${list("'self'", ...scriptHashes)}`,
    // Style attributes: React's style props (progress bars, virtual lists' offsets, the
    // splash's bar) and Ark UI's positioning write them, and the server's copy of a page carries
    // them in its HTML; 'unsafe-inline' for styles cannot run script. A hash here would switch
    // 'unsafe-inline' off, so the splash's own <style> is covered by it too.
    "style-src 'self' 'unsafe-inline'",
    // data: for small inline pictures, blob: for the admin's previews of files to upload, and
    // https: for pictures and videos the shop keeps elsewhere: a product's media may be an
    // absolute URL (Import Products, src/lib/media-url.ts) and a description may show <img>s.
    // A picture or video cannot run script (an SVG as an image runs none).
    `img-src ${list("'self'", 'data:', 'blob:', 'https:', backendHttp)}`,
    `media-src ${list("'self'", 'blob:', 'https:', backendHttp)}`,
    `connect-src ${list("'self'", ...realtime, ...backend)}`,
    "font-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

type Shell = { scriptHashes: string[]; backendOrigin: string | null }

async function readShell(staticDir: string): Promise<Shell> {
  const html = await readFile(join(staticDir, 'index.html'), 'utf8').catch(() => '')
  let backendOrigin: string | null = null
  try {
    const sources = JSON.parse(
      await readFile(join(staticDir, CSP_SOURCES_FILE), 'utf8'),
    ) as Partial<CspSources>
    if (typeof sources.backendOrigin === 'string') backendOrigin = sources.backendOrigin
  } catch {
    // A build without the file talks to this server only.
  }
  return { scriptHashes: inlineScriptHashes(html), backendOrigin }
}

export type SecurityHeaders = (
  req: IncomingMessage,
  res: ServerResponse,
  kind: 'api' | 'app',
) => Promise<void>

/**
 * Sets the headers on `res` before anything else writes it (a later setHeader or writeHead may
 * tighten them, as storage does). The page policy follows the built index.html: it is read
 * again whenever the file changes (a rebuild while the server runs).
 */
export function createSecurityHeaders(staticDir: string | null): SecurityHeaders {
  let shell: { mtime: number; value: Promise<Shell> } | null = null
  const current = async (): Promise<Shell> => {
    if (!staticDir) return { scriptHashes: [], backendOrigin: null }
    const mtime = await stat(join(staticDir, 'index.html')).then(
      (info) => info.mtimeMs,
      () => -1,
    )
    if (shell?.mtime !== mtime) shell = { mtime, value: readShell(staticDir) }
    return shell.value
  }
  return async (req, res, kind) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
    if (requestScheme(req) === 'https') res.setHeader('Strict-Transport-Security', HSTS)
    if (kind === 'api') {
      res.setHeader(CSP_HEADER, API_CSP)
      return
    }
    const { scriptHashes, backendOrigin } = await current()
    res.setHeader(
      CSP_HEADER,
      pagePolicy({ scriptHashes, backendOrigin, host: req.headers.host ?? null }),
    )
  }
}

/**
 * Adds to the policy already on `res` the hashes of `html`'s own inline scripts (a page built
 * from the shell and something else, as the server's copy of a page is).
 */
export function allowInlineScriptsOf(res: ServerResponse, html: string): void {
  const policy = res.getHeader(CSP_HEADER)
  if (typeof policy !== 'string' || !/(^|;\s*)script-src /.test(policy)) return
  const missing = inlineScriptHashes(html).filter((hash) => !policy.includes(hash))
  if (missing.length === 0) return
  res.setHeader(
    CSP_HEADER,
    policy.replace(/script-src [^;]*/, (sources) => [sources, ...missing].join(' ')),
  )
}
