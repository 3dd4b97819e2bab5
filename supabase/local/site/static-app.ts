// Serves the built PWA (dist/) from the same origin as the API, so `npm start` is one process on
// one port. Navigations fall back to index.html (client-side routes, including the 404 page).
// Caching follows what the service worker expects: the shell files are revalidated every time
// so a new version is noticed; hashed /assets/* never change.
// Text files (scripts, styles, SVG, the manifest) are sent compressed, brotli or gzip as the
// browser accepts, each compressed once per version of the file and kept in memory: on a phone
// the app's JavaScript is a third of its size on the wire.
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import sirv from 'sirv'
import {
  compressors,
  MIN_COMPRESS_BYTES,
  pickEncoding,
  type Encoding,
} from '../http/compression.ts'
import { reportServerError } from '../http/request-log.ts'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Humo</title>
<p>The app has not been built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>`

const TEXT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
}
function cacheControl(pathname: string): string {
  return pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
}

export function createStaticApp(staticDir: string | null): Handler {
  if (!staticDir || !existsSync(join(staticDir, 'index.html'))) {
    return (_req, res) => {
      res.writeHead(503, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      })
      res.end(NOT_BUILT)
    }
  }
  const root = normalize(staticDir + sep)
  const serve = sirv(staticDir, {
    single: true,
    etag: true,
    gzip: false,
    brotli: false,
    // A value here makes sirv put a Cache-Control header on every file, which setHeaders refines.
    maxAge: 0,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControl(pathname))
      if (pathname === '/sw.js') res.setHeader('Service-Worker-Allowed', '/')
    },
    onNoMatch(_req, res) {
      res.writeHead(404, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-cache',
      })
      res.end('Not found')
    },
  })

  // file|encoding → the compressed body of the version of the file seen (size and mtime).
  const compressed = new Map<string, { version: string; body: Promise<Buffer> }>()
  const compressedBody = (file: string, version: string, encoding: Encoding) => {
    const key = `${file}|${encoding}`
    const cached = compressed.get(key)
    if (cached?.version === version) return cached.body
    const body = readFile(file).then((data) => compressors[encoding](data))
    body.catch(() => compressed.delete(key))
    compressed.set(key, { version, body })
    return body
  }

  /** A compressible file of dist/ the request names; null when sirv should answer. */
  async function compressibleFile(req: IncomingMessage) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null
    if (req.headers.range) return null
    let pathname: string
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    } catch {
      return null
    }
    // Like sirv: no dotfiles (dist/.vite holds the build's manifests).
    if (pathname.split('/').some((segment) => segment.startsWith('.'))) return null
    const type = TEXT_TYPES[extname(pathname)]
    if (!type) return null
    const file = normalize(join(root, pathname))
    if (!file.startsWith(root)) return null
    const info = await stat(file).catch(() => null)
    if (!info?.isFile() || info.size < MIN_COMPRESS_BYTES) return null
    return { file, pathname, type, version: `${info.size}-${Math.trunc(info.mtimeMs)}` }
  }

  async function serveCompressed(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const encoding = pickEncoding(req.headers['accept-encoding'])
    if (!encoding) return false
    const found = await compressibleFile(req)
    if (!found) return false
    const etag = `W/"${found.version}-${encoding}"`
    const headers: Record<string, string> = {
      'Content-Type': found.type,
      'Cache-Control': cacheControl(found.pathname),
      'Content-Encoding': encoding,
      Vary: 'Accept-Encoding',
      ETag: etag,
    }
    if (found.pathname === '/sw.js') headers['Service-Worker-Allowed'] = '/'
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers)
      res.end()
      return true
    }
    const body = await compressedBody(found.file, found.version, encoding)
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) })
    res.end(req.method === 'HEAD' ? undefined : body)
    return true
  }

  return (req, res) => {
    serveCompressed(req, res).then(
      (done) => {
        if (!done) serve(req, res)
      },
      (error: unknown) => {
        reportServerError('compressed file failed', error)
        if (!res.headersSent) serve(req, res)
        else res.destroy()
      },
    )
  }
}
