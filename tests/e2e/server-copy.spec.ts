import { expect, test, type Page } from '@playwright/test'
import { AGE_VERIFIED_KEY, passAgeGate } from './helpers/storefront'

// Decision 010: a first visit through the network comes with the server's copy of a catalogue
// page, so the page itself shows when SPEC's splash count is over, even while the app's scripts
// are still on their way; the app takes the copy's place once its own page is ready.

// No service worker: every navigation goes through the network, as on a first visit.
test.use({ serviceWorkers: 'block' })

/**
 * The text the page paints, the copy's included: it is in a closed shadow root, which scripts
 * and locators do not enter (it is a picture of the page), so it is read as the browser holds it.
 */
async function paintedText(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page)
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
    root: DomNode
  }
  await cdp.detach()
  const texts: string[] = []
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) texts.push(node.nodeValue)
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child)
  }
  walk(root)
  return texts.join(' ')
}
type DomNode = {
  nodeType: number
  nodeValue: string
  children?: DomNode[]
  shadowRoots?: DomNode[]
}

test('the menu shows from the server when the count is over, before the app has started', async ({
  page,
}) => {
  await passAgeGate(page)
  // The app's scripts never arrive.
  await page.route('**/assets/*.js', (route) => route.abort())
  await page.goto('/menu/flower')

  await expect(page.locator('#boot-splash')).toHaveCount(0)
  await expect(page.locator('#prerendered-page')).toHaveCount(1)
  const text = await paintedText(page)
  expect(text).toContain('Flower Menu')
  expect(text).toMatch(/Showing \d+ of \d+ products/)
  expect(text).toContain('Humboldt Purple Kush')
  // What the shopper sees is the page, painted: its largest paint is far bigger than the splash.
  const largest = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        new PerformanceObserver((list) =>
          resolve(
            Math.max(
              ...list.getEntries().map((e) => (e as PerformanceEntry & { size: number }).size),
            ),
          ),
        ).observe({ type: 'largest-contentful-paint', buffered: true }),
      ),
  )
  expect(largest).toBeGreaterThan(20_000)
})

test('the app takes the copy’s place with its own page, which works', async ({ page }) => {
  await passAgeGate(page)
  await page.goto('/product/humboldt-purple-kush')
  await expect(page.getByRole('heading', { level: 1, name: 'Humboldt Purple Kush' })).toBeVisible()
  await expect(page.locator('#prerendered-page')).toHaveCount(0)
  await page.getByRole('button', { name: 'Add to Cart' }).first().click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
})

test('a shopper who has not answered the 21+ question gets the question, not the copy', async ({
  page,
}) => {
  await page.goto('/menu/flower')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
  await expect(page.locator('#prerendered-page')).toHaveCount(0)
  expect(await page.evaluate((key) => localStorage.getItem(key), AGE_VERIFIED_KEY)).toBeNull()
  expect(await paintedText(page)).not.toContain('Flower Menu')
})

// Plain text, not a function: every frame of the start, from the first one.
const RECORD_FRAMES = `(() => {
  const frames = []
  window.startUpFrames = frames
  const frame = () => {
    const cards = [...document.querySelectorAll('[role="list"][aria-label="Products"] [role="listitem"]')]
    frames.push({
      at: performance.now(),
      copy: document.getElementById('prerendered-page') !== null,
      cards: cards.filter((card) => card.checkVisibility({ visibilityProperty: true })).length,
    })
    if (frames.length < 1200) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})()`

test('the copy stays until the app’s page has its products, never giving way to skeletons', async ({
  page,
}) => {
  await passAgeGate(page)
  // A slow first pull: the app's page is ready long before its products are.
  const PULL_DELAY_MS = 2500
  await page.route(/\/rest\/v1\/rpc\/pull_products(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, PULL_DELAY_MS))
    await route.continue()
  })
  await page.addInitScript({ content: RECORD_FRAMES })
  await page.goto('/menu/flower')
  await expect(page.locator('#prerendered-page')).toHaveCount(0, { timeout: 15_000 })
  await expect(
    page.getByRole('list', { name: 'Products' }).getByRole('listitem').first(),
  ).toBeVisible()

  const frames = await page.evaluate(
    () =>
      (window as { startUpFrames?: { at: number; copy: boolean; cards: number }[] })
        .startUpFrames ?? [],
  )
  const withCopy = frames.findIndex((f) => f.copy)
  expect(withCopy).toBeGreaterThanOrEqual(0)
  const swap = frames.slice(withCopy).find((f) => !f.copy)!
  expect(swap.at).toBeGreaterThan(PULL_DELAY_MS)
  expect(swap.cards).toBeGreaterThan(0)
})

test('the app’s scripts are asked for only after the copy’s first paint, however late it comes', async ({
  page,
}) => {
  await passAgeGate(page)
  // The stylesheet holds the copy's first paint; here it takes 600 ms.
  await page.route('**/assets/*.css', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600))
    await route.continue()
  })
  await page.goto('/menu/flower')
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  const { firstPaint, scripts } = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    scripts: performance
      .getEntriesByType('resource')
      .filter((entry) => /\/assets\/.*\.js$/.test(entry.name))
      .map((entry) => entry.startTime),
  }))
  expect(scripts.length).toBeGreaterThan(0)
  expect(Math.min(...scripts)).toBeGreaterThan(firstPaint)
})

// Issue 25: a press on the copy before the app took its place was lost without a word (the copy
// was inert: a tap on Add to Cart did nothing, and neither did a link). Its controls now show
// that they are not ready until the app's own page is there, and its links work as links.

type CopyControl = { disabled: boolean; opacity: number; cursor: string; x: number; y: number }

/** The first control of the copy whose text (or label) matches, as the browser holds it. */
async function copyControl(page: Page, tag: string, text: RegExp): Promise<CopyControl | null> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
      root: CdpNode
    }
    const textOf = (node: CdpNode): string =>
      node.nodeType === 3
        ? node.nodeValue
        : [...(node.children ?? []), ...(node.shadowRoots ?? [])].map(textOf).join('')
    const label = (node: CdpNode) => {
      const attributes = node.attributes ?? []
      const at = attributes.indexOf('aria-label')
      return at >= 0 ? attributes[at + 1]! : textOf(node)
    }
    const found: CdpNode[] = []
    const walk = (node: CdpNode, inCopy: boolean) => {
      const copy = inCopy || (node.attributes ?? []).join(' ').includes('prerendered-page')
      if (copy && node.nodeName === tag.toUpperCase() && text.test(label(node))) found.push(node)
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child, copy)
    }
    walk(root, false)
    for (const node of found) {
      const { object } = (await cdp.send('DOM.resolveNode', {
        backendNodeId: node.backendNodeId,
      })) as {
        object: { objectId: string }
      }
      const { result } = (await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: `function () {
          this.scrollIntoView({ block: 'center' })
          const box = this.getBoundingClientRect()
          const style = getComputedStyle(this)
          return {
            disabled: this.disabled === true || this.getAttribute('aria-disabled') === 'true',
            opacity: Number(style.opacity),
            cursor: style.cursor,
            x: box.x + box.width / 2,
            y: box.y + box.height / 2,
            shown: box.width > 0 && box.height > 0,
          }
        }`,
        returnByValue: true,
      })) as { result: { value: CopyControl & { shown: boolean } } }
      if (result.value.shown) return result.value
    }
    return null
  } finally {
    await cdp.detach()
  }
}
type CdpNode = DomNode & {
  nodeName: string
  backendNodeId: number
  attributes?: string[]
  children?: CdpNode[]
  shadowRoots?: CdpNode[]
}

/** Holds the app's scripts back until `release` is called: the copy stays, as under load. */
async function holdAppScripts(page: Page): Promise<() => void> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/assets/*.js', async (route) => {
    await released
    await route.continue().catch(() => undefined)
  })
  return release
}

test('the copy’s Add to Cart shows it is not ready, and pressed once the app has its page it works', async ({
  page,
}) => {
  await passAgeGate(page)
  const release = await holdAppScripts(page)
  await page.goto('/product/humboldt-purple-kush')
  await expect(page.locator('#boot-splash')).toHaveCount(0)
  await expect(page.locator('#prerendered-page')).toHaveCount(1)

  const add = await copyControl(page, 'button', /^Add to Cart$/)
  expect(add).not.toBeNull()
  // Visibly not ready: disabled, dimmed, a busy pointer.
  expect(add!.disabled).toBe(true)
  expect(add!.opacity).toBeLessThan(0.7)
  expect(add!.cursor).toBe('progress')
  await page.mouse.click(add!.x, add!.y)
  // The header's buttons and the quantity too.
  for (const [tag, name] of [
    ['button', /^Switch to (dark|light) theme$/],
    ['input', /^Quantity$/],
    ['button', /^Increase quantity$/],
  ] as const) {
    const control = await copyControl(page, tag, name)
    expect(control, String(name)).not.toBeNull()
    expect(control!.disabled, String(name)).toBe(true)
  }

  release()
  await expect(page.locator('#prerendered-page')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Humboldt Purple Kush' })).toBeVisible()
  // The press on the copy added nothing behind the shopper's back; the app's button works.
  await expect(page.getByTestId('cart-count')).toHaveCount(0)
  await page.getByRole('button', { name: 'Add to Cart' }).first().click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
})

test('a link on the copy works as a link while the app is still on its way', async ({ page }) => {
  await passAgeGate(page)
  await holdAppScripts(page)
  await page.goto('/menu/flower')
  await expect(page.locator('#boot-splash')).toHaveCount(0)
  await expect(page.locator('#prerendered-page')).toHaveCount(1)
  const link = await copyControl(page, 'a', /Humboldt Purple Kush/)
  expect(link).not.toBeNull()
  expect(link!.disabled).toBe(false)
  await page.mouse.click(link!.x, link!.y)
  await expect(page).toHaveURL(/\/product\/humboldt-purple-kush$/)
})
