// Issue 23, finding 6: every answer of the embedded server carries the security headers, and the
// app's pages a Content-Security-Policy that runs only the origin's scripts and the inline
// scripts the pages actually carry (by hash, never 'unsafe-inline').
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../../../tests/fixtures/backend'
import { parseTrustedProxies, setTrustedProxies } from './client-address'
import { createPrerenderer } from '../site/prerender'
import {
  API_CSP,
  createSecurityHeaders,
  CSP_SOURCES_FILE,
  HSTS,
  inlineScriptHashes,
  SECURITY_HEADERS,
} from './security-headers'
import { startHumoBackend, type HumoBackend } from '../server'

const HOSTED = 'https://abcdefgh.supabase.co'

/**
 * A built app as vite.config.ts makes it: the repository's index.html (the theme and splash
 * scripts) with splashFirst's stylesheet switch and script loader, and a data block a browser
 * does not run.
 */
async function builtShell(): Promise<string> {
  const source = await readFile(join(import.meta.dirname, '../../../index.html'), 'utf8')
  return source
    .replace(
      '</head>',
      `<script>
      document.addEventListener('load', function swap(event) {}, true)
    </script>
    <link rel="preload" as="style" crossorigin href="/assets/app-abc.css" data-app-css>
    <script type="application/ld+json">{"@context":"https://schema.org"}</script>
  </head>`,
    )
    .replace(
      '<script type="module" src="/src/main.tsx"></script>',
      `<script id="humo-scripts">
      ;(function () { var script = document.createElement('script'); script.src = "/assets/index-abc.js" })()
    </script>`,
    )
}

let dist: string
let shell: string
let backend: HumoBackend
let copies: Server
let copiesUrl: string

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'humo-headers-'))
  shell = await builtShell()
  await mkdir(join(dist, 'assets'))
  await mkdir(join(dist, '.vite'))
  await writeFile(join(dist, 'index.html'), shell)
  await writeFile(join(dist, 'assets/index-abc.js'), `export const x = ${'1 + '.repeat(400)}1\n`)
  await writeFile(join(dist, 'assets/app-abc.css'), 'body { color: black }\n')
  await writeFile(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})\n')
  await writeFile(join(dist, 'manifest.webmanifest'), '{"name":"Humo"}\n')
  await writeFile(join(dist, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  await writeFile(join(dist, CSP_SOURCES_FILE), JSON.stringify({ backendOrigin: HOSTED }))
  backend = await startHumoBackend({ port: 0, dataDir: null, staticDir: dist, quiet: true })

  // The server's copy of pages, rendered from the app's source (dist/ has no server build here),
  // behind the same headers the server sets.
  const headers = createSecurityHeaders(dist)
  const prerender = createPrerenderer(backend.db, dist, () => import('../../../src/entry-server'))
  const config = { supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey }
  copies = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    void headers(req, res, 'app')
      .then(() => prerender(req, res, url, config))
      .then((sent) => {
        if (sent) return
        res.writeHead(500)
        res.end('not rendered')
      })
  })
  await new Promise<void>((done) => copies.listen(0, '127.0.0.1', done))
  copiesUrl = `http://127.0.0.1:${(copies.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((done) => copies?.close(done))
  await backend?.close()
  if (dist) await rm(dist, { recursive: true, force: true })
})

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  )
}

/** The inline scripts a browser would run, found by splitting the HTML apart (not by the module). */
function inlineScripts(html: string): string[] {
  const scripts: string[] = []
  for (const piece of html.split(/<script/i).slice(1)) {
    const open = piece.slice(0, piece.indexOf('>'))
    const text = piece.slice(piece.indexOf('>') + 1, piece.search(/<\/script/i))
    if (/\ssrc=/i.test(open)) continue
    const type = /\stype="([^"]*)"/i.exec(open)?.[1]
    if (type && type !== 'module' && type !== 'text/javascript') continue
    scripts.push(text)
  }
  return scripts
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `'sha256-${Buffer.from(digest).toString('base64')}'`
}

/** The page's inline scripts all run under its policy, and the policy allows no other. */
async function expectHashesMatch(html: string, policy: string) {
  const scripts = inlineScripts(html)
  expect(scripts.length).toBeGreaterThan(0)
  const expected = new Set(await Promise.all(scripts.map(sha256)))
  const scriptSrc = directives(policy).get('script-src') ?? []
  expect(scriptSrc).not.toContain("'unsafe-inline'")
  expect(scriptSrc).not.toContain("'unsafe-eval'")
  expect(new Set(scriptSrc.filter((source) => source.startsWith("'sha256-")))).toEqual(expected)
}

describe('security headers on every answer (issue 23, finding 6)', () => {
  const answers: { what: string; path: string; init?: RequestInit; kind: 'app' | 'api' }[] = [
    { what: 'the shop', path: '/', kind: 'app' },
    { what: 'the admin', path: '/admin', kind: 'app' },
    { what: 'a client-side route (the shell)', path: '/cart', kind: 'app' },
    { what: 'a catalogue page without a server build', path: '/menu/flower', kind: 'app' },
    { what: 'a script (compressed)', path: '/assets/index-abc.js', kind: 'app' },
    { what: 'a stylesheet', path: '/assets/app-abc.css', kind: 'app' },
    { what: 'the service worker', path: '/sw.js', kind: 'app' },
    { what: 'the manifest', path: '/manifest.webmanifest', kind: 'app' },
    { what: 'an icon', path: '/icon-192.png', kind: 'app' },
    { what: 'a missing asset (404)', path: '/assets/missing.js', kind: 'app' },
    { what: 'the backend config', path: '/humo-config.json', kind: 'app' },
    { what: 'a REST read', path: '/rest/v1/categories?select=id', kind: 'api' },
    { what: 'a REST 404', path: '/rest/v1/no_such_table', kind: 'api' },
    {
      what: 'a REST 4xx on bad JSON',
      path: '/rest/v1/rpc/place_order',
      init: { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } },
      kind: 'api',
    },
    {
      what: 'a CORS preflight',
      path: '/rest/v1/categories',
      init: { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET' } },
      kind: 'api',
    },
    { what: 'auth settings', path: '/auth/v1/settings', kind: 'api' },
    {
      what: 'a failed sign-in',
      path: '/auth/v1/token?grant_type=password',
      init: {
        method: 'POST',
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }),
        headers: { 'Content-Type': 'application/json' },
      },
      kind: 'api',
    },
    { what: 'realtime over HTTP (404)', path: '/realtime/v1/api/x', kind: 'api' },
    {
      what: 'a missing storage object',
      path: '/storage/v1/object/public/product_media/no-such-file.webp',
      kind: 'api',
    },
  ]

  it.each(answers)('$what ($path)', async ({ path, init, kind }) => {
    const response = await fetch(`${backend.url}${path}`, {
      ...init,
      headers: { apikey: backend.anonKey, ...init?.headers },
    })
    await response.arrayBuffer()
    expect(response.status).not.toBe(500)
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(response.headers.get(name), name).toBe(value)
    expect(response.headers.get('Strict-Transport-Security')).toBeNull()
    const policy = response.headers.get('Content-Security-Policy') ?? ''
    const csp = directives(policy)
    expect(csp.get('frame-ancestors') ?? csp.get('sandbox'), policy).toBeDefined()
    if (csp.has('frame-ancestors')) expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    if (kind === 'api') {
      // Storage answers may be stricter still (storage-files.ts), never looser.
      expect(csp.get('default-src')).toEqual(["'none'"])
      if (!path.startsWith('/storage/')) expect(policy).toBe(API_CSP)
      return
    }
    expect(csp.get('default-src')).toEqual(["'self'"])
    expect(csp.get('script-src')?.[0]).toBe("'self'")
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
    expect(csp.get('object-src')).toEqual(["'none'"])
    expect(csp.get('base-uri')).toEqual(["'self'"])
    expect(csp.get('form-action')).toEqual(["'self'"])
    expect(csp.get('worker-src')).toEqual(["'self'"])
    expect(csp.get('manifest-src')).toEqual(["'self'"])
  })

  it("runs exactly the shell's inline scripts, by hash", async () => {
    const response = await fetch(`${backend.url}/`)
    const html = await response.text()
    expect(html).toBe(shell)
    await expectHashesMatch(html, response.headers.get('Content-Security-Policy') ?? '')
    // The data block is not a script to allow; an inline handler would be refused, so none.
    expect(html).toContain('application/ld+json')
    expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i)
  })

  it("follows a rebuilt index.html: the new build's scripts, not the old one's", async () => {
    // The same length: sirv keeps each file's size from the start (the app is rebuilt under a
    // running server only in development).
    const rebuilt = shell.replace('var verified = false', 'var verified = !true')
    expect(rebuilt).not.toBe(shell)
    await writeFile(join(dist, 'index.html'), rebuilt)
    try {
      const response = await fetch(`${backend.url}/admin`)
      await expectHashesMatch(
        await response.text(),
        response.headers.get('Content-Security-Policy') ?? '',
      )
    } finally {
      await writeFile(join(dist, 'index.html'), shell)
    }
  })

  it.each(['/menu/flower', '/product/watermelon-sea-salt-gummies'])(
    "the server's copy of %s runs exactly its inline scripts, by hash",
    async (path) => {
      const response = await fetch(`${copiesUrl}${path}`)
      const html = await response.text()
      expect(response.status).toBe(200)
      expect(html).toContain('id="prerendered-page"')
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name), name).toBe(value)
      await expectHashesMatch(html, response.headers.get('Content-Security-Policy') ?? '')
    },
  )

  it('lets the app reach its backend: this host for Realtime, and a hosted Supabase it was built for', async () => {
    const response = await fetch(`${backend.url}/`)
    const csp = directives(response.headers.get('Content-Security-Policy') ?? '')
    const host = new URL(backend.url).host
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      `ws://${host}`,
      `wss://${host}`,
      HOSTED,
      HOSTED.replace('https:', 'wss:'),
    ])
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:', HOSTED])
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:', 'https:', HOSTED])
    // And the app's own realtime connection still opens under it.
    const supabase = client(backend.url, backend.anonKey)
    const status = await new Promise<string>((done) => {
      supabase.channel('headers-test').subscribe((state) => {
        if (String(state) !== 'CLOSED') done(String(state))
      })
    })
    expect(status).toBe('SUBSCRIBED')
    await supabase.removeAllChannels()
  })

  it.each(['//', '//a:b'])(
    'a request path no URL parser takes (%s) is a 400 with the headers too',
    async (path) => {
      const url = new URL(backend.url)
      const answer = await new Promise<{ status: number; headers: Record<string, unknown> }>(
        (done, fail) => {
          request({ host: url.hostname, port: url.port, path }, (res) => {
            res.resume()
            done({ status: res.statusCode ?? 0, headers: res.headers })
          })
            .on('error', fail)
            .end()
        },
      )
      expect(answer.status).toBe(400)
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(answer.headers[name.toLowerCase()], name).toBe(value)
      expect(answer.headers['content-security-policy']).toBe(API_CSP)
    },
  )

  it('hashes a script as the parser gives it: \\r\\n line breaks become \\n', async () => {
    expect(inlineScriptHashes('<script>\r\nvar a = 1\r\n</script>')).toEqual([
      await sha256('\nvar a = 1\n'),
    ])
    // Data blocks and scripts from files are not inline scripts to allow.
    expect(
      inlineScriptHashes(
        '<script type="application/ld+json">{}</script><script src="/a.js"></script><script type=module>x()</script>',
      ),
    ).toEqual([await sha256('x()')])
  })

  it('keeps a forged Host out of the policy', async () => {
    const policy = await new Promise<string>((done, fail) => {
      const url = new URL(backend.url)
      request(
        {
          host: url.hostname,
          port: url.port,
          path: '/',
          headers: { Host: "evil.example script-src 'unsafe-inline'" },
        },
        (res) => {
          res.resume()
          done(String(res.headers['content-security-policy']))
        },
      )
        .on('error', fail)
        .end()
    })
    expect(policy).not.toContain('evil.example')
    expect(directives(policy).get('script-src')).not.toContain("'unsafe-inline'")
  })

  it('asks for HTTPS only when the request came over HTTPS, by a proxy the shop trusts', async () => {
    const ask = (path: string) =>
      fetch(`${backend.url}${path}`, {
        headers: { 'x-forwarded-proto': 'https', apikey: backend.anonKey },
      })
    for (const path of ['/', '/rest/v1/categories?select=id']) {
      // Any caller can write the header: from a peer nobody named, it proves nothing.
      expect((await ask(path)).headers.get('Strict-Transport-Security')).toBeNull()
    }
    setTrustedProxies(parseTrustedProxies('loopback'))
    try {
      for (const path of ['/', '/rest/v1/categories?select=id']) {
        expect((await ask(path)).headers.get('Strict-Transport-Security')).toBe(HSTS)
      }
      const config = (await (await ask('/humo-config.json')).json()) as { supabaseUrl: string }
      expect(config.supabaseUrl).toMatch(/^https:\/\//)
    } finally {
      setTrustedProxies([])
    }
    const config = (await (await ask('/humo-config.json')).json()) as { supabaseUrl: string }
    expect(config.supabaseUrl).toMatch(/^http:\/\//)
  })
})
