import { expect, type Locator, type Page } from '@playwright/test'

/**
 * WCAG 2.5.8 (Target Size, Minimum, AA) measured in the page: every visible target at least
 * 24 × 24 CSS px, save its exceptions —
 * - spacing: a 24 px circle on the target's centre meets no other target, nor another small
 *   target's circle;
 * - inline: a link inside a sentence (its block holds more text than the link);
 * - user agent: a native checkbox or radio the page did not size, with a label that is a target
 *   of its own (the label presses it);
 * - essential: none claimed.
 * Returns one line per offender ("button "Dismiss" 18×18 at 300,20"), empty when all is well.
 * `within`: only targets inside that selector (an open dialog).
 */
export async function smallTargets(page: Page, within?: string): Promise<string[]> {
  const { found, exempt } = await sweepTargets(page, within)
  if (process.env.HUMO_TARGET_TRACE) for (const line of exempt) console.log(`exempt: ${line}`)
  return found
}

/** The offenders, and the small targets let be with why (HUMO_TARGET_TRACE prints them). */
function sweepTargets(page: Page, within?: string) {
  return page.evaluate((scope) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type=hidden])',
      'select',
      'textarea',
      'summary',
      ...[
        'button',
        'link',
        'menuitem',
        'tab',
        'checkbox',
        'radio',
        'switch',
        'option',
        'slider',
      ].map((role) => `[role=${role}]`),
    ].join(', ')
    const root = scope ? document.querySelector(scope) : document
    const exempt: string[] = []
    if (!root) return { found: [`nothing matches ${scope}`], exempt }
    const targets: { el: HTMLElement; box: DOMRect }[] = []
    for (const el of root.querySelectorAll<HTMLElement>(selector)) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || style.pointerEvents === 'none') continue
      if (el.closest('[aria-hidden=true], [inert]')) continue
      if ((el as HTMLInputElement).disabled) continue
      // Screen-reader-only (skip links until focused, Ark's hidden native inputs): nothing to press.
      if (box.width <= 1.5 || box.height <= 1.5) continue
      // Clipped to nothing by an ancestor (a closed drawer off screen, a scrolled-away strip).
      if (box.right <= 0 || box.bottom <= 0 || box.left >= innerWidth) continue
      targets.push({ el, box })
    }
    const big = (r: DOMRect) => r.width >= 23.5 && r.height >= 23.5
    const describe = (el: HTMLElement, box: DOMRect) => {
      const name = (el.getAttribute('aria-label') ?? el.innerText ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40)
      const role = el.getAttribute('role')
      return `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${name}" ${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.left)},${Math.round(box.top)}`
    }
    const small = targets.filter(({ el, box }) => {
      if (big(box)) return false
      const label = (el as HTMLInputElement).labels?.[0]?.getBoundingClientRect()
      if (label && big(label)) {
        exempt.push(`${describe(el, box)} (its label is a target)`)
        return false
      }
      const style = getComputedStyle(el)
      if (style.display === 'inline') {
        const block = el.parentElement?.closest('p, li, dd, td, span, div')
        const own = (el.textContent ?? '').trim().length
        if (block && (block.textContent ?? '').trim().length > own + 3) {
          exempt.push(`${describe(el, box)} (inline in a sentence)`)
          return false
        }
      }
      return true
    })
    const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 })
    const out: string[] = []
    for (const { el, box } of small) {
      const c = centre(box)
      const crowded = targets.some((other) => {
        if (other.el === el || other.el.contains(el) || el.contains(other.el)) return false
        if (small.some((s) => s.el === other.el)) {
          const o = centre(other.box)
          return Math.hypot(o.x - c.x, o.y - c.y) < 24
        }
        // Distance from the circle's centre to the other target's box.
        const dx = Math.max(other.box.left - c.x, 0, c.x - other.box.right)
        const dy = Math.max(other.box.top - c.y, 0, c.y - other.box.bottom)
        return Math.hypot(dx, dy) < 12
      })
      if (crowded) out.push(describe(el, box))
      else exempt.push(`${describe(el, box)} (spaced)`)
    }
    return { found: out, exempt }
  }, within)
}

/** WCAG 2.5.5's 44 × 44 for a main control; the failure says which. */
export async function expectThumbSized(locator: Locator, what: string) {
  await expect(locator).toBeVisible()
  const box = await locator.boundingBox()
  if (!box) throw new Error(`${what}: no box`)
  expect(box.width, `${what} width`).toBeGreaterThanOrEqual(44)
  expect(box.height, `${what} height`).toBeGreaterThanOrEqual(44)
}

/** Collects a walk's findings and fails once, with all of them. */
export class TargetSweep {
  readonly found: string[] = []

  constructor(
    private readonly page: Page,
    private readonly device: string,
  ) {}

  async check(where: string, within?: string) {
    await this.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    for (const line of await smallTargets(this.page, within))
      this.found.push(`[${this.device}] ${where}: ${line}`)
  }

  /** Soft 44 px check: a main control that is short goes in the findings, the walk goes on. */
  async thumb(locator: Locator, what: string) {
    await expect(locator).toBeVisible()
    const box = await locator.boundingBox()
    if (!box || box.width < 44 || box.height < 44)
      this.found.push(
        `[${this.device}] main control ${what} is ${box ? `${Math.round(box.width)}×${Math.round(box.height)}` : 'not laid out'}, needs 44×44`,
      )
  }

  /** 24 × 24 even where spacing would excuse less (a finger on a phone or the tablet). */
  async atLeast24(locator: Locator, what: string) {
    await expect(locator).toBeVisible()
    const box = await locator.boundingBox()
    if (!box || box.width < 23.5 || box.height < 23.5)
      this.found.push(
        `[${this.device}] ${what} is ${box ? `${Math.round(box.width)}×${Math.round(box.height)}` : 'not laid out'}, needs 24×24`,
      )
  }

  report() {
    const text = this.found.join('\n')
    if (text) console.log(text)
    expect(this.found, `small targets:\n${text}`).toEqual([])
  }
}
