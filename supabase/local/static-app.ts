// Serves the built PWA (dist/) from the same origin as the API, so `npm start` is one process on
// one port. Navigations fall back to index.html (client-side routes, including the 404 page).
// Caching follows what the service worker expects: the shell files are revalidated every time
// so a new version is noticed; hashed /assets/* never change.
import { existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import sirv from 'sirv'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Humo</title>
<p>The app has not been built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>`

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
  const serve = sirv(staticDir, {
    single: true,
    etag: true,
    gzip: false,
    brotli: false,
    // A value here makes sirv put a Cache-Control header on every file, which setHeaders refines.
    maxAge: 0,
    setHeaders(res, pathname) {
      res.setHeader(
        'Cache-Control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
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
  return (req, res) => serve(req, res)
}
