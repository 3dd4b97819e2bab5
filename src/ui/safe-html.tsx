import { useLayoutEffect, useRef } from 'react'
import { importWhenReachable } from '../lib/import-when-reachable'

// Markup typed by staff (a product's "Description (HTML)") is shown without letting it run
// anything. Browsers with the HTML Sanitizer API do that themselves: `setHTML` always drops
// scripts, event handler attributes and javascript: URLs, whatever the config. Others fetch
// DOMPurify, with its HTML profile, the first time they meet markup.

type SanitizerLike = {
  allowElement(element: { name: string; attributes: string[] }): void
  allowAttribute(name: string): void
}
type WithSetHtml = Element & { setHTML?: (html: string, options: { sanitizer: unknown }) => void }
declare const Sanitizer: (new () => SanitizerLike) | undefined

let sanitizer: SanitizerLike | undefined
/** The browser's safe defaults, plus what DOMPurify's HTML profile also keeps and shops use. */
function nativeSanitizer(): SanitizerLike {
  if (!sanitizer) {
    sanitizer = new Sanitizer!()
    sanitizer.allowElement({ name: 'img', attributes: ['src', 'alt', 'width', 'height'] })
    for (const attribute of ['class', 'style', 'title']) sanitizer.allowAttribute(attribute)
  }
  return sanitizer
}

const loadPurify = importWhenReachable(() =>
  import('dompurify').then(
    ({ default: DOMPurify }) =>
      (html: string) =>
        DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }),
  ),
)

/** Sanitized HTML in a div. Text without markup is shown as text, with nothing to sanitize. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null)
  const plain = !/[<&]/.test(html)
  useLayoutEffect(() => {
    const element = ref.current as WithSetHtml | null
    if (!element || plain) return
    if (typeof element.setHTML === 'function' && typeof Sanitizer === 'function') {
      element.setHTML(html, { sanitizer: nativeSanitizer() })
      return
    }
    let current = true
    element.replaceChildren()
    void loadPurify().then((sanitize) => {
      if (current) element.innerHTML = sanitize(html)
    })
    return () => {
      current = false
    }
  }, [html, plain])
  // Keyed by `plain`: React owns the text child, the effect owns the markup.
  return (
    <div key={plain ? 'text' : 'html'} ref={ref} className={className}>
      {plain ? html : null}
    </div>
  )
}
