// The storefront's JavaScript budget (issue 7), checked against the production build in dist/.
//
// For each storefront route it counts the gzipped JavaScript a first visit loads before the
// shopper can interact:
//   - the entry chunk of index.html and everything it imports statically, transitively (Vite
//     also lists these as <link rel="modulepreload"> in index.html, so they all load at boot):
//     React, the router, RxDB on Dexie and the app's boot code;
//   - the route's lazy chunks made by TanStack Router's autoCodeSplitting (the `?tsr-split=`
//     pieces holding `component` or `loader`; the error, not-found and pending components are
//     left out as they only load when shown), for the route file and any layout route above it,
//     with their static imports, transitively;
//   - the dynamic imports the app performs unconditionally at boot (BOOT_IMPORTS: the anonymous
//     PostgREST client, the catalogue pull and the outboxes, src/data/humo-data.ts).
// Listed apart, each with what it adds, and checked against the goal where they can load before
// interaction:
//   - CONDITIONAL: dynamic imports that load with the route's first render only in some cases
//     (DOMPurify on browsers without the HTML Sanitizer API; the list windowing for menus of 120
//     products or more; the bulk writer of a device's first catalogue pull, docs/decisions/035-first-sync-breakdown.md). The route's figure with them must also be within BUDGET_KB.
//   - AFTER_FIRST_PULL: the live change feed (Realtime), fetched once the first catalogue pull
//     has finished, that is once the catalogue is on screen and usable; nothing listens for
//     changes before there is a catalogue (src/data/humo-data.ts). Not counted.
//   - AFTER_LOAD: the service worker's registration (workbox-window), the toasts' code (Ark
//     UI's toaster, fetched ahead of the first "added to your cart"), the media warming (it
//     only ever follows a sync, docs/decisions/013-starts-from-a-kept-copy.md) and the words of the shop's open status and phone
//     hours (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md), imported after the window's
//     `load` event and, on the storefront, the first catalogue sync (src/lib/when-settled.ts,
//     docs/decisions/012-service-worker-after-first-sync.md). Not counted.
// Not counted either: dynamic imports behind an interaction (Ark UI's tooltip, select, slider and
// tabs on the first hover, press or focus of their static copies (src/ui/lazy-part.ts), dialogs
// and toasts when opened, a route preloaded on hover by `defaultPreload: 'intent'`), CSS,
// images, fonts, and the service worker itself (not JavaScript of the page).
// Sizes are each file gzipped on its own with node:zlib's default level (6), what compression
// middleware sends; a file shared by the entry and the route is counted once.
//
// It also checks that no admin code (src/features/admin/**, recharts, cmdk, @dnd-kit,
// papaparse) is bundled into any chunk a storefront route loads, using the module list per chunk
// that vite.config.ts writes to dist/.vite/chunk-modules.json.
//
// The goal, BUDGET_KB, is met by every route (issue 7). `npm test` fails when a route grows past
// CEILING_KB (the worst route when the goal was met, plus a little headroom; never above the
// goal), when a route with its conditional imports passes BUDGET_KB, or when admin code leaks
// into the storefront, so the figure can only go down.
//
// Run: node scripts/check-budget.mjs [--json] (after `npm run build:app`). Exit 1 on a breach.
import { existsSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export const BUDGET_KB = 250
/**
 * The regression guard: the worst route when the goal was met (the menu, 234.4 KB, 2026-11-23)
 * plus a little headroom. Never above BUDGET_KB.
 */
export const CEILING_KB = 240

/** Storefront routes and their route files (src/routes). */
export const ROUTES = [
  { path: '/', file: 'src/routes/index.tsx' },
  { path: '/menu/$category', file: 'src/routes/menu/$category.tsx' },
  { path: '/product/$slug', file: 'src/routes/product/$slug.tsx' },
]

/** Source modules the app imports dynamically at boot, whatever the shopper does. */
export const BOOT_IMPORTS = ['src/data/sync-modules.ts']

/** Dynamic imports a route loads with its first render in some cases only (see the header). */
export const CONDITIONAL = [
  {
    route: '/product/$slug',
    module: 'node_modules/dompurify/dist/purify.es.mjs',
    when: 'on browsers without the HTML Sanitizer API (Element.setHTML), to sanitize the description',
  },
  {
    route: '/menu/$category',
    module: 'src/features/catalogue/components/virtual-product-rows.tsx',
    when: 'for menus of 120 products or more, to window the list',
  },
  // Any route can be a device's first visit: its first catalogue pull fetches this chunk.
  ...['/', '/menu/$category', '/product/$slug'].map((route) => ({
    route,
    module: 'src/data/replication/bulk-first-pull.ts',
    when: "on a device's first catalogue pull (no checkpoint stored yet), to write whole pages at once",
  })),
]

/** Fetched once the first catalogue pull has finished (not counted; see the header). */
export const AFTER_FIRST_PULL = ['src/data/live-modules.ts']

/** Imported after the window's `load` event (not counted; see the header). */
export const AFTER_LOAD = [
  'src/features/pwa/register-service-worker.ts',
  'src/ui/ark-toaster.tsx',
  'src/features/pwa/media-warming.ts',
  'src/lib/open-status.ts',
]

/** Module ids (as in chunk-modules.json) that are admin code. */
export const ADMIN_PATTERNS = [
  /^src\/features\/admin\//,
  /^src\/routes\/admin.*\?tsr-split=/,
  /^node_modules\/(recharts|cmdk|@dnd-kit\/[^/]+|papaparse)\//,
]

const SPLIT = '?tsr-split='

/** Split groups that render or load the route; the others only load on an error or a wait. */
function isNeededSplit(key) {
  const at = key.indexOf(SPLIT)
  if (at < 0) return false
  const groups = key.slice(at + SPLIT.length).split('---')
  return groups.includes('component') || groups.includes('loader')
}

/** Layout route files that can sit above a route file (menu.tsx, menu/route.tsx, …). */
export function layoutFiles(routeFile) {
  const dir = path.posix.dirname(routeFile)
  const parts = dir.split('/')
  const out = []
  for (let i = 3; i <= parts.length; i++) {
    const parent = parts.slice(0, i).join('/')
    out.push(`${parent}.tsx`, `${parent}/route.tsx`)
  }
  return out.filter((f) => f !== routeFile)
}

/** Manifest keys reachable from `keys` through static imports, the starting keys included. */
export function staticClosure(manifest, keys) {
  const seen = new Set()
  const stack = [...keys]
  while (stack.length) {
    const key = stack.pop()
    if (seen.has(key)) continue
    const chunk = manifest[key]
    if (!chunk) throw new Error(`the build manifest has no ${key}`)
    seen.add(key)
    for (const next of chunk.imports ?? []) stack.push(next)
  }
  return seen
}

/**
 * The manifest keys of every JavaScript chunk a first visit to the route loads before it can be
 * used (see the header for what is counted).
 */
export function routeLoad(manifest, routeFile, { entry = 'index.html', boot = BOOT_IMPORTS } = {}) {
  const sources = [routeFile, ...layoutFiles(routeFile)]
  const splits = Object.keys(manifest).filter((key) => {
    const at = key.indexOf(SPLIT)
    return at >= 0 && sources.includes(key.slice(0, at)) && isNeededSplit(key)
  })
  if (!Object.keys(manifest).some((key) => key.startsWith(`${routeFile}${SPLIT}`))) {
    // Without a split the route is bundled into the entry; it must still be in the build.
    const inEntryGraph = [...staticClosure(manifest, [entry])].some(
      (key) => manifest[key].src === routeFile,
    )
    if (!inEntryGraph && !manifest[routeFile])
      throw new Error(`${routeFile} is neither code-split nor in the entry's graph`)
  }
  for (const key of boot) {
    if (!manifest[key]) throw new Error(`the boot import ${key} is not in the build manifest`)
  }
  return staticClosure(manifest, [entry, ...boot, ...splits])
}

/** Admin module ids found in the given chunk files. */
export function adminModulesIn(chunkModules, files) {
  const found = []
  for (const file of files) {
    for (const id of Object.keys(chunkModules[file] ?? {})) {
      if (ADMIN_PATTERNS.some((re) => re.test(id))) found.push({ file, id })
    }
  }
  return found
}

const kb = (bytes) => bytes / 1024

/** The packages (or source folders) making up most of a chunk, by their size before minifying. */
export function biggestParts(modules, count = 3) {
  const parts = new Map()
  for (const [id, size] of Object.entries(modules ?? {})) {
    const segments = id.split('/')
    const part =
      segments[0] === 'node_modules'
        ? segments.slice(0, segments[1]?.startsWith('@') ? 3 : 2).join('/')
        : segments.slice(0, Math.min(3, segments.length - 1) || 1).join('/')
    parts.set(part, (parts.get(part) ?? 0) + size)
  }
  return [...parts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part]) => part.replace(/^node_modules\//, ''))
}

/**
 * Measures every storefront route of the build in `dist`: gzipped JavaScript loaded before first
 * interaction (and the part the first render waits for), its chunks, and admin code found.
 */
export function measureBudget(dist) {
  const manifestFile = path.join(dist, '.vite', 'manifest.json')
  const modulesFile = path.join(dist, '.vite', 'chunk-modules.json')
  if (!existsSync(manifestFile) || !existsSync(modulesFile))
    throw new Error('dist/.vite/manifest.json is missing: run `npm run build:app` first')
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
  const chunkModules = JSON.parse(readFileSync(modulesFile, 'utf8'))
  const gzipped = new Map()
  const sizeOf = (file) => {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(dist, file))).length)
    return gzipped.get(file)
  }
  const jsBytes = (keys) =>
    [...keys]
      .map((key) => manifest[key].file)
      .filter((file) => file.endsWith('.js'))
      .reduce((sum, file) => sum + sizeOf(file), 0)

  /** What loading `modules` adds to the chunks in `loaded` (their static closure, minus those). */
  const extra = (modules, loaded) => {
    for (const module of modules)
      if (!manifest[module]) throw new Error(`the build manifest has no ${module}`)
    const keys = [...staticClosure(manifest, modules)].filter((key) => !loaded.has(key))
    return {
      modules,
      gzipKB: +kb(jsBytes(keys)).toFixed(1),
      admin: adminModulesIn(
        chunkModules,
        keys.map((key) => manifest[key].file),
      ),
    }
  }

  return ROUTES.map((route) => {
    const loaded = routeLoad(manifest, route.file)
    const files = [...loaded].map((key) => manifest[key].file)
    const chunks = files
      .filter((file) => file.endsWith('.js'))
      .map((file) => ({
        file,
        bytes: sizeOf(file),
        parts: biggestParts(chunkModules[file]),
      }))
      .sort((a, b) => b.bytes - a.bytes)
    const total = kb(chunks.reduce((sum, c) => sum + c.bytes, 0))
    // The part the first render waits for: the same without the boot's dynamic imports.
    const firstRender = jsBytes(routeLoad(manifest, route.file, { boot: [] }))
    const conditional = CONDITIONAL.filter((c) => c.route === route.path).map((c) => {
      const added = extra([c.module], loaded)
      const withIt = +(total + added.gzipKB).toFixed(1)
      return { ...added, when: c.when, withItGzipKB: withIt, overBudget: withIt > BUDGET_KB }
    })
    const afterFirstPull = extra(AFTER_FIRST_PULL, loaded)
    const afterLoad = extra(AFTER_LOAD, loaded)
    return {
      route: route.path,
      gzipKB: +total.toFixed(1),
      firstRenderGzipKB: +kb(firstRender).toFixed(1),
      overBudget: total > BUDGET_KB,
      overCeiling: total > CEILING_KB,
      chunks,
      conditional,
      afterFirstPull,
      afterLoad,
      admin: [
        ...adminModulesIn(chunkModules, files),
        ...[...conditional, afterFirstPull, afterLoad].flatMap((x) => x.admin),
      ],
    }
  })
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  let results
  try {
    results = measureBudget(path.join(root, 'dist'))
  } catch (error) {
    console.error(`[budget] ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  let failed = false
  for (const result of results) {
    const verdict = result.overCeiling
      ? `  ✖ OVER THE ${CEILING_KB} KB CEILING`
      : result.overBudget
        ? `  ✖ goal missed by ${(result.gzipKB - BUDGET_KB).toFixed(1)} KB`
        : '  ✔'
    console.log(
      `[budget] ${result.route.padEnd(16)} ${result.gzipKB.toFixed(1).padStart(6)} KB gzipped JS in ${result.chunks.length} chunks (goal ${BUDGET_KB} KB, ceiling ${CEILING_KB} KB; ${result.firstRenderGzipKB.toFixed(1)} KB before the first render, the rest loaded beside it at boot)${verdict}`,
    )
    for (const c of result.conditional) {
      console.log(
        `[budget]     + ${c.gzipKB.toFixed(1)} KB ${c.when} (${c.modules.join(', ')}): ${c.withItGzipKB.toFixed(1)} KB${c.overBudget ? `  ✖ over the ${BUDGET_KB} KB goal` : '  ✔'}`,
      )
      if (c.overBudget) failed = true
    }
    console.log(
      `[budget]     not counted: ${result.afterFirstPull.gzipKB.toFixed(1)} KB after the first catalogue pull (the live change feed: ${AFTER_FIRST_PULL.join(', ')}), ${result.afterLoad.gzipKB.toFixed(1)} KB after the window's load event and the first sync (${AFTER_LOAD.join(', ')})`,
    )
    if (result.overCeiling || result.overBudget) {
      failed = true
      console.error(`[budget] ${result.route}'s biggest chunks:`)
      for (const c of result.chunks.slice(0, 8))
        console.error(
          `[budget]     ${kb(c.bytes).toFixed(1).padStart(6)} KB  ${c.file}  (${c.parts.join(', ')})`,
        )
    }
    if (result.admin.length) {
      failed = true
      console.error(`[budget] ${result.route} loads admin code:`)
      for (const a of result.admin.slice(0, 20))
        console.error(`[budget]     ${a.id}  (in ${a.file})`)
    }
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2))
  if (failed) {
    console.error(
      `[budget] ✖ the storefront grew past its ${CEILING_KB} KB ceiling or the ${BUDGET_KB} KB goal, or loads admin code`,
    )
    process.exit(1)
  }
  console.log(
    `[budget] ✔ goal met (issue 7): every storefront route loads at most ${BUDGET_KB} KB of gzipped JavaScript before first interaction (at most ${CEILING_KB} KB, the ceiling, without the conditional imports) and no admin code`,
  )
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
