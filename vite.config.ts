import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin, type UserConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { APP_SCRIPTS_ID } from './src/lib/shell-markup.ts'

const backendPort = process.env.HUMO_BACKEND_PORT ?? '3000'

/**
 * Writes dist/.vite/chunk-modules.json (chunk file → the modules bundled into it, with their
 * rendered sizes) beside Vite's manifest, so scripts/check-budget.mjs can tell which code a
 * storefront route loads. Module ids are made relative (node_modules/…, src/…).
 */
function chunkModules(): Plugin {
  const root = fileURLToPath(new URL('.', import.meta.url))
  const shortId = (id: string) => {
    const clean = id.replace(/\0/g, '')
    const at = clean.lastIndexOf('/node_modules/')
    if (at >= 0) return clean.slice(at + 1)
    return clean.startsWith(root) ? clean.slice(root.length) : clean
  }
  return {
    name: 'humo-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const outputs = Object.values(bundle)
      // The service worker is bundled by a second build (vite-plugin-pwa); only the app counts.
      const isApp = outputs.some(
        (output) => output.type === 'chunk' && output.facadeModuleId?.endsWith('/index.html'),
      )
      if (!isApp) return
      const chunks: Record<string, Record<string, number>> = {}
      for (const output of outputs) {
        if (output.type !== 'chunk') continue
        chunks[output.fileName] = Object.fromEntries(
          Object.entries(output.modules).map(([id, info]) => [shortId(id), info.renderedLength]),
        )
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: JSON.stringify(chunks, null, 1),
      })
    },
  }
}

/**
 * The built index.html paints the start-up splash before anything else arrives (docs/decisions/008-splash-first-page-underneath.md):
 * the app's stylesheet is fetched at once but without holding the first paint (the splash has
 * its own inline styles; src/main.tsx waits for the stylesheet before it renders), and on a visit
 * through the network the app's scripts and their module preloads are only requested once the
 * splash is on screen, so on a slow connection the HTML does not share the line with 300 KB of
 * JavaScript before anything shows. A page the service worker answers starts them at once.
 */
function splashFirst(): Plugin {
  return {
    name: 'humo-splash-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const modules: string[] = []
        let entry: string | null = null
        let out = html.replace(
          /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g,
          (_, href: string) => {
            modules.push(href)
            return ''
          },
        )
        out = out.replace(
          /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/,
          (_, src: string) => {
            entry = src
            return ''
          },
        )
        out = out.replace(
          /<link rel="stylesheet" crossorigin href="([^"]+)">/,
          (_, href: string) =>
            // The preload becomes the stylesheet once it has arrived. Not with an onload
            // attribute: the Content-Security-Policy runs no inline handler (docs/decisions/028-content-security-policy.md). The
            // listener is set before the link is parsed, so it cannot miss the load (after it,
            // a cached stylesheet could have loaded already and the app would stay unstyled).
            `<script>
      document.addEventListener(
        'load',
        function swap(event) {
          var link = event.target
          if (!link.hasAttribute || !link.hasAttribute('data-app-css')) return
          document.removeEventListener('load', swap, true)
          if (link.rel === 'preload') link.rel = 'stylesheet'
        },
        true,
      )
    </script>
    <link rel="preload" as="style" crossorigin href="${href}" data-app-css>`,
        )
        if (!entry) throw new Error('humo-splash-first: no entry script in index.html')
        // The service worker moves this script ahead of a kept copy of the page (docs/decisions/013-starts-from-a-kept-copy.md).
        const loader = `<script id="${APP_SCRIPTS_ID}">
      // The app's scripts, asked for once the splash has painted (vite.config.ts, splashFirst).
      ;(function () {
        var started = false
        function start() {
          if (started) return
          started = true
          var modules = ${JSON.stringify(modules)}
          modules.forEach(function (href) {
            var link = document.createElement('link')
            link.rel = 'modulepreload'
            link.crossOrigin = ''
            link.href = href
            document.head.appendChild(link)
          })
          var script = document.createElement('script')
          script.type = 'module'
          script.crossOrigin = ''
          script.src = ${JSON.stringify(entry)}
          document.head.appendChild(script)
        }
        // From the service worker's cache nothing shares a line with the HTML: start at once.
        if (navigator.serviceWorker && navigator.serviceWorker.controller) return start()
        // A tab in the background paints nothing: it starts at once, or when it is sent there.
        if (document.visibilityState === 'hidden') return start()
        document.addEventListener('visibilitychange', start, { once: true })
        // Otherwise once the first paint is on screen (reported after it is presented, a frame
        // after requestAnimationFrame): requested sooner, the scripts share the line with the
        // stylesheet and the first pictures, and Lighthouse counts their download in the first
        // paint. Only a paint held up past 3 s (a slow stylesheet) no longer holds them.
        var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes
        if (types && types.indexOf('paint') >= 0) {
          new PerformanceObserver(function (list, observer) {
            if (!list.getEntriesByName('first-contentful-paint').length) return
            observer.disconnect()
            setTimeout(start, 0)
          }).observe({ type: 'paint', buffered: true })
        } else {
          requestAnimationFrame(function () {
            setTimeout(start, 0)
          })
        }
        setTimeout(start, 3000)
      })()
    </script>
  </body>`
        return out.replace('</body>', loader)
      },
    },
  }
}

/**
 * Writes dist/.vite/csp-sources.json: the hosted Supabase a build for one talks to
 * (VITE_SUPABASE_URL), which the embedded server's Content-Security-Policy must allow for the
 * API, Realtime and media (supabase/local/http/security-headers.ts). The script hashes are not here:
 * the server takes them from the index.html it sends.
 */
function cspSources(): Plugin {
  let backendOrigin: string | null = null
  return {
    name: 'humo-csp-sources',
    apply: 'build',
    configResolved(config) {
      const url = config.env.VITE_SUPABASE_URL as unknown
      backendOrigin = typeof url === 'string' && url !== '' ? new URL(url).origin : null
    },
    generateBundle(_options, bundle) {
      const isApp = Object.values(bundle).some(
        (output) => output.type === 'chunk' && output.facadeModuleId?.endsWith('/index.html'),
      )
      if (!isApp) return
      this.emitFile({
        type: 'asset',
        fileName: '.vite/csp-sources.json',
        source: JSON.stringify({ backendOrigin }),
      })
    },
  }
}

const resolve = {
  alias: { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) },
}
const routerPlugin = () =>
  tanstackRouter({
    target: 'react',
    autoCodeSplitting: true,
    routesDirectory: './src/routes',
    generatedRouteTree: './src/route-tree.gen.ts',
  })

/** Modules every catalogue page uses, shipped as one chunk (build.rolldownOptions below). */
const CATALOGUE_SHARED = [
  'src/features/catalogue/components/product-card.tsx',
  // The card's parts the product page shares (its media, potency, the phone query): left to the
  // automatic splitting they came as small chunks of their own, a request each (docs/decisions/051-california-taxes-and-daily-limits.md).
  'src/features/catalogue/components/card-media.tsx',
  'src/features/catalogue/potency.ts',
  'src/features/catalogue/hooks/use-media-query.ts',
  'src/features/catalogue/hooks/use-deferred-catalogue.ts',
  'src/features/cart/cart.actions.ts',
  'src/features/cart/hooks/use-add-to-cart.ts',
  'src/data/hooks/use-media-url.ts',
  'src/data/live-query.ts',
]

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        // The server's render of storefront pages (src/entry-server.tsx, docs/decisions/010-server-copy-of-catalogue-pages.md), built
        // with `vite build --ssr` into dist/.server: a dot folder, which neither the static
        // server nor the service worker's precache hands out.
        resolve,
        plugins: [routerPlugin(), react()],
        publicDir: false,
        // Self-contained (libraries bundled, ES modules named .mjs), so dist/ runs wherever it
        // is copied, with or without node_modules beside it.
        ssr: { noExternal: true },
        build: {
          target: 'node20',
          sourcemap: false,
          outDir: 'dist/.server',
          emptyOutDir: true,
          rolldownOptions: {
            output: { entryFileNames: '[name].mjs', chunkFileNames: 'assets/[name]-[hash].mjs' },
          },
        },
      }
    : app(),
)

function app(): UserConfig {
  return {
    resolve,
    plugins: [
      routerPlugin(),
      react(),
      chunkModules(),
      splashFirst(),
      cspSources(),
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'sw',
        filename: 'sw.ts',
        injectRegister: false,
        registerType: 'prompt',
        manifest: {
          name: 'Humo — California cannabis, delivered',
          short_name: 'Humo',
          description: 'Fuma más, vive más. California-grown cannabis, direct from farms.',
          theme_color: '#14532d',
          background_color: '#faf7f2',
          display: 'standalone',
          start_url: '/',
          scope: '/',
          id: '/',
          categories: ['shopping', 'food'],
          icons: [
            { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            {
              src: '/icon-maskable-512.png',
              sizes: '512x512',
              type: 'image/png',
              purpose: 'maskable',
            },
            { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          ],
          shortcuts: [
            {
              name: 'Menu',
              short_name: 'Menu',
              url: '/menu',
              icons: [{ src: '/icon-192.png', sizes: '192x192' }],
            },
            {
              name: 'Cart',
              short_name: 'Cart',
              url: '/cart',
              icons: [{ src: '/icon-192.png', sizes: '192x192' }],
            },
            {
              name: 'Admin',
              short_name: 'Admin',
              url: '/admin',
              icons: [{ src: '/icon-192.png', sizes: '192x192' }],
            },
          ],
        },
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        },
        devOptions: { enabled: false },
      }),
    ],
    server: {
      // `npm run dev` talks to the embedded backend started beside Vite.
      proxy: Object.fromEntries(
        ['/rest', '/auth', '/storage', '/realtime', '/humo-config.json'].map((p) => [
          p,
          { target: `http://127.0.0.1:${backendPort}`, ws: p === '/realtime' },
        ]),
      ),
    },
    build: {
      target: 'es2022',
      sourcemap: false,
      manifest: true,
      rolldownOptions: {
        output: {
          // Everything the entry imports statically loads at every boot anyway; left to the
          // automatic splitting it came as ~40 small files (each gzipped on its own, each a request).
          // Two groups, both limited to that initial graph ($initial) so no lazy or admin code joins
          // them: the boot's libraries in one chunk, the app's own boot code in another (the entry
          // module stays apart so index.html keeps its entry). Saves ~13 KB gzipped per route
          // (scripts/check-budget.mjs).
          codeSplitting: {
            groups: [
              {
                name: 'vendor',
                tags: ['$initial'],
                test: /[\\/]node_modules[\\/]/,
              },
              {
                name: 'app',
                tags: ['$initial'],
                test: (id) =>
                  /[\\/](src|styled-system)[\\/]/.test(id) && !/[\\/]src[\\/]main\.tsx$/.test(id),
              },
              {
                // What every catalogue page (home, menus, product) loads besides its own route
                // code: split by what else shares each module, it came as six small files, each
                // a request that costs the start's main thread 0.4–0.9 ms to issue (docs/decisions/017-fewer-chunks-at-a-start.md).
                name: 'catalogue-shared',
                test: (id) => CATALOGUE_SHARED.some((path) => id.endsWith(path)),
              },
            ],
          },
        },
      },
    },
  }
}
