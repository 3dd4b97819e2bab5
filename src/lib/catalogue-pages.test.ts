import { describe, expect, it } from 'vitest'
import { APP_SCRIPTS_ID } from './shell-markup'
import {
  asKeptCopy,
  catalogueKey,
  COMMON_PAGES,
  isCataloguePage,
  isWarmPagesMessage,
  markOf,
} from './catalogue-pages'

// The shape of a page with its copy, as supabase/local/site/prerender.ts (withCopy) sends it.
const page = [
  '<html><head></head><body>',
  '<div id="boot-splash">…</div>',
  '<div id="prerendered-page" inert aria-hidden="true"><template shadowrootmode="closed">',
  '<ul role="list" aria-label="Products"><li role="listitem">Card</li></ul></template></div>',
  '<div id="root"></div>',
  '<script>/* the splash counter */</script>',
  `<script id="${APP_SCRIPTS_ID}">/* asks for the app's scripts */</script>`,
  '</body></html>',
].join('')

describe('catalogue pages', () => {
  it('are the home page, the menus and the product pages', () => {
    for (const path of ['/', '/menu', '/menu/flower', '/menu/flower/', '/product/og-kush'])
      expect(isCataloguePage(path)).toBe(true)
    for (const path of ['/cart', '/checkout', '/admin', '/admin/orders', '/menu/a/b', '/product'])
      expect(isCataloguePage(path)).toBe(false)
    expect(COMMON_PAGES).toContain('/menu/flower')
    expect(COMMON_PAGES.every(isCataloguePage)).toBe(true)
  })

  it('a kept copy is marked, and asks for the app’s scripts before the copy is parsed', () => {
    const kept = asKeptCopy(page)
    expect(kept).toContain('<div id="prerendered-page" data-kept inert aria-hidden="true">')
    const scripts = kept.indexOf(`<script id="${APP_SCRIPTS_ID}">`)
    expect(scripts).toBeGreaterThan(kept.indexOf('<div id="boot-splash">'))
    expect(scripts).toBeLessThan(kept.indexOf('<div id="prerendered-page"'))
    // Nothing lost or doubled: the same parts, one script moved.
    expect(kept.length).toBe(page.length + ' data-kept'.length)
    expect(kept.split(APP_SCRIPTS_ID)).toHaveLength(2)
    expect(kept).toContain('<div id="root"></div><script>/* the splash counter */</script></body>')
  })

  it('the shell alone (a server without copies) is kept as it is', () => {
    const shell = page.replace(/<div id="prerendered-page".*?<\/template><\/div>/, '')
    expect(shell).not.toContain('prerendered-page')
    expect(asKeptCopy(shell)).toBe(shell)
  })

  it('the catalogue key changes with any row added, changed or removed', () => {
    const products = [
      { serverModified: '2026-11-01T10:00:00Z' },
      { serverModified: '2026-11-02T10:00:00Z' },
    ]
    const brands = [{ serverModified: '2026-10-01T10:00:00Z' }]
    const key = catalogueKey([markOf(products), markOf(brands)])
    expect(markOf(products)).toEqual({ count: 2, lastModified: '2026-11-02T10:00:00Z' })
    expect(catalogueKey([markOf(products), markOf(brands)])).toBe(key)
    const changed = [...products, { serverModified: '2026-11-03T10:00:00Z' }]
    expect(catalogueKey([markOf(changed), markOf(brands)])).not.toBe(key)
    expect(catalogueKey([markOf(products.slice(1)), markOf(brands)])).not.toBe(key)
    expect(catalogueKey([markOf(products), markOf([])])).not.toBe(key)
  })

  it('only a well-formed warming message is taken', () => {
    expect(isWarmPagesMessage({ type: 'WARM_PAGES', catalogueKey: '2@x' })).toBe(true)
    expect(isWarmPagesMessage({ type: 'WARM_PAGES' })).toBe(false)
    expect(isWarmPagesMessage({ type: 'WARM_MEDIA', urls: [] })).toBe(false)
    expect(isWarmPagesMessage(null)).toBe(false)
  })
})
