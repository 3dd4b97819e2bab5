import { css } from 'styled-system/css'

const ID = 'humo-announcer'

/**
 * The storefront's one polite live region (WCAG 4.1.3): mounted with the page, empty, so screen
 * readers already watch it when something is said ("Added … to cart", a quantity changed).
 * React renders it without children; announce() writes its text.
 */
export function LiveRegion() {
  return <div id={ID} role="status" aria-atomic="true" className={css({ srOnly: true })} />
}

/** Says `text` through the LiveRegion, if one is on the page. */
export function announce(text: string): void {
  const region = document.getElementById(ID)
  if (!region) return
  // Emptied first and filled a moment later, so the same words said twice are read twice.
  region.textContent = ''
  setTimeout(() => (region.textContent = text), 100)
}
