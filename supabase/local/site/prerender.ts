// Sends the storefront's catalogue pages (/, the menus, product pages) with the page already drawn
// (docs/decisions/010-server-copy-of-catalogue-pages.md). A first visit through the network otherwise shows only the splash until the
// app's scripts and the catalogue have both arrived; with this, the page itself is painted from
// the HTML. The app still renders its own page and takes the copy away when it has its content.
// The copy is rendered by the app's own route components (dist/.server/entry-server.mjs, built by
// `vite build --ssr`) from what an anonymous shopper may read: the same pull_<table> RPCs a
// device pulls, run as `anon`, so row level security decides here as it does for the API.
// Snapshots and rendered pages are kept until the catalogue changes (catalogue_changes).
import type { PGlite } from '@electric-sql/pglite'
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as Entry from '../../../src/entry-server.tsx'
import { COMMON_PAGES, isCataloguePage } from '../../../src/lib/catalogue-pages.ts'
import { COPY_ID } from '../../../src/lib/shell-markup.ts'
import { sendText } from '../http/compression.ts'
import { withRequestRole } from '../request/request-context.ts'
import { allowInlineScriptsOf } from '../http/security-headers.ts'
import { loggedPath, reportServerError } from '../http/request-log.ts'

type BackendConfig = { supabaseUrl: string; supabaseAnonKey: string }
type Rows = Entry.CatalogueRows

/** Pages rendered per catalogue version (each URL's search is part of its key). */
const MAX_PAGES = 200
const PAGE_ROWS = 1000
/** The copy's pictures fetched first: a phone's first row of cards, or a product's picture. */
const FIRST_PICTURES = 2
const PULLS: (keyof Rows)[] = ['products', 'categories', 'brands', 'product_types', 'shop_settings']

const ANON = { role: 'anon' as const, claims: { role: 'anon' } }
const READ = { method: 'GET', path: '/prerender', headers: {}, readOnly: true }

/** A version of the catalogue: when each of its tables last changed. */
async function catalogueVersion(db: PGlite): Promise<string> {
  const { rows } = await db.query<{ version: string | null }>(
    `select string_agg(table_name || '@' || changed_at::text, ',' order by table_name) as version
       from public.catalogue_changes`,
  )
  return rows[0]?.version ?? ''
}

/** Every row an anonymous pull from scratch brings, with the time of the read. */
export async function readCatalogue(db: PGlite): Promise<{ rows: Rows; readAt: string }> {
  return withRequestRole(db, ANON, READ, async (tx) => {
    const rows = {} as Record<keyof Rows, { id: string; _modified: string; _deleted: boolean }[]>
    let readAt = ''
    for (const table of PULLS) {
      const all: Rows[keyof Rows] = []
      let after: { modified: string; id: string } | null = null
      for (;;) {
        const result: { rows: { page: { rows?: Rows[keyof Rows]; read_at?: string } }[] } =
          await tx.query(`select public.pull_${table}($1, $2, $3) as page`, [
            after?.modified ?? null,
            after?.id ?? null,
            PAGE_ROWS,
          ])
        const page = result.rows[0]?.page
        const batch = page?.rows ?? []
        readAt = page?.read_at ?? readAt
        all.push(...(batch as never[]))
        const last = batch.at(-1)
        if (batch.length < PAGE_ROWS || !last) break
        after = { modified: last._modified, id: last.id }
      }
      rows[table] = all
    }
    return { rows: rows as unknown as Rows, readAt }
  })
}

export type Prerenderer = {
  (req: IncomingMessage, res: ServerResponse, url: URL, config: BackendConfig): Promise<boolean>
  /**
   * Loads the renderer and the catalogue, and renders the common pages, ahead of the first
   * visitor (the first render of a route loads its code).
   */
  warm(config: BackendConfig): Promise<void>
}

/**
 * Answers a navigation to a catalogue page with its copy; false when it does not (another
 * path, no server build, a redirect), and the app's shell is sent as before.
 */
export function createPrerenderer(
  db: PGlite,
  staticDir: string | null,
  /** Where the renderer comes from: the server build; tests pass the source module. */
  loadEntry?: () => Promise<typeof Entry>,
): Prerenderer {
  const entryFile = staticDir && join(staticDir, '.server', 'entry-server.mjs')
  const shellFile = staticDir && join(staticDir, 'index.html')
  const load = loadEntry ?? (() => import(pathToFileURL(entryFile!).href) as Promise<typeof Entry>)
  let entry: Promise<typeof Entry> | null = null
  let shell: { mtime: number; html: Promise<string> } | null = null
  let snapshot: { version: string; value: Promise<Entry.CatalogueSnapshot> } | null = null
  const pages = new Map<string, Promise<Entry.RenderedPage | null>>()

  const template = async () => {
    const mtime = (await stat(shellFile!)).mtimeMs
    if (shell?.mtime !== mtime) shell = { mtime, html: readFile(shellFile!, 'utf8') }
    return shell.html
  }

  const catalogue = async (version: string) => {
    if (snapshot?.version !== version) {
      pages.clear()
      const loading = (async () => {
        const module = await (entry ??= load())
        const { rows, readAt } = await readCatalogue(db)
        return module.snapshotOf(rows, readAt)
      })()
      loading.catch(() => (snapshot = null))
      snapshot = { version, value: loading }
    }
    return snapshot.value
  }

  const render = async (path: string, config: BackendConfig) => {
    const version = await catalogueVersion(db)
    const value = await catalogue(version)
    const key = `${config.supabaseUrl}${path}`
    let page = pages.get(key)
    if (!page) {
      if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!)
      page = entry!.then((module) => module.renderPage(path, value, config))
      page.catch(() => pages.delete(key))
      pages.set(key, page)
    }
    return page
  }

  const built = () =>
    Boolean(shellFile && existsSync(shellFile) && (loadEntry || existsSync(entryFile!)))

  const prerender = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    config: BackendConfig,
  ) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false
    if (!isCataloguePage(url.pathname) || !built()) return false
    let page: Entry.RenderedPage | null
    let html: string
    try {
      page = await render(url.pathname + url.search, config)
      html = await template()
    } catch (error) {
      // The shell alone still works: the app renders the page itself.
      reportServerError(`pre-rendering ${loggedPath(url.pathname)} failed`, error)
      return false
    }
    if (!page) return false
    const body = withCopy(html, page.html)
    // The shell's scripts are in the policy already; a script of the page's own would be too.
    allowInlineScriptsOf(res, body)
    await sendText(
      req,
      res,
      page.status,
      { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
      body,
    )
    return true
  }
  const warm = async (config: BackendConfig) => {
    if (!built()) return
    for (const path of COMMON_PAGES) await render(path, config)
  }
  return Object.assign(prerender, { warm })
}

/** Controls whose press needs the app: the copy shows them as not ready (issue 25). */
const NATIVE_CONTROL = /<(button|input|select|textarea)\b([^>]*)>/gi
/** Ark's controls drawn as elements with a role (a slider's thumbs, a switch). */
const ROLE_CONTROL =
  /<(?!(?:a|button|input|select|textarea)\b)([a-z][a-z0-9-]*)\b([^>]*\srole="(?:slider|switch|checkbox|radio|spinbutton|combobox)"[^>]*)>/gi
const HAS_DISABLED = /\sdisabled(?=[\s=/]|$)/i

/**
 * The copy's own style: its controls look not ready (dimmed, with a busy pointer) until the app
 * takes the copy's place with its own page, whose controls work. Links are links, and work.
 */
export const NOT_READY_STYLE =
  ':host{cursor:progress}' +
  'button:disabled,input:disabled,select:disabled,textarea:disabled,[aria-disabled="true"],' +
  'label:has(input:disabled){cursor:progress;opacity:.55;filter:grayscale(.6)}'

/**
 * The page's controls, disabled: a press on the copy cannot reach the app, which has not started
 * (nor ever hydrates the copy), so it must not look as if it could. Before, the whole copy was
 * inert: a tap on Add to Cart, or on a link, did nothing and said nothing.
 */
export function notReady(page: string): string {
  return page
    .replace(NATIVE_CONTROL, (tag, name: string, attributes: string) =>
      HAS_DISABLED.test(attributes) ? tag : `<${name} disabled${attributes}>`,
    )
    .replace(ROLE_CONTROL, (_tag, name: string, attributes: string) => {
      const rest = attributes
        .replace(/\saria-disabled="[^"]*"/i, '')
        .replace(/\stabindex="[^"]*"/i, '')
      return `<${name} aria-disabled="true" data-disabled="" tabindex="-1"${rest}>`
    })
}

/**
 * The shell with the page's copy before #root, in a closed shadow root with the app's
 * stylesheet: it is a picture of the page, apart from the app's document (no second set of ids
 * or texts for scripts or tests), until the app takes it away. It is not inert: its links work
 * as plain navigations, and assistive technology reads it as the page (the app's own page is
 * hidden from it meanwhile, BootSplash). Its controls show that they are not ready (notReady).
 * The stylesheet holds the first paint here, so the copy never shows unstyled (the splash alone
 * does not need it: index.html).
 */
export function withCopy(shell: string, page: string): string {
  const stylesheet = /<link rel="preload" as="style" crossorigin href="([^"]+)" data-app-css[^>]*>/
  const href = stylesheet.exec(shell)?.[1]
  if (!href) throw new Error('index.html has no app stylesheet')
  const copy =
    `<div id="${COPY_ID}"><template shadowrootmode="closed">` +
    `<link rel="stylesheet" crossorigin href="${href}"><style>${NOT_READY_STYLE}</style>` +
    `${notReady(page)}</template></div>`
  // The copy's first pictures are asked for with the stylesheet: a parser meets them only once
  // it reaches them in the copy, at the end of the HTML.
  const preloads = [...page.matchAll(/<img\b[^>]*\bfetchpriority="high"[^>]*>/gi)]
    .map((img) => /\bsrc="([^"]+)"/.exec(img[0])?.[1])
    .filter((src) => src !== undefined)
    .slice(0, FIRST_PICTURES)
    .map((src) => `<link rel="preload" as="image" fetchpriority="high" href="${src}">`)
    .join('')
  return shell
    .replace(
      stylesheet,
      `${preloads}<link rel="stylesheet" crossorigin href="${href}" data-app-css>`,
    )
    .replace('<div id="root"></div>', `${copy}<div id="root"></div>`)
}
