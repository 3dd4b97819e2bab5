import { useEffect, type RefObject } from 'react'

/** Read by the toaster's bottom offset (ark-toaster.tsx). */
export const TOAST_CLEARANCE_VAR = '--toast-clearance'

/**
 * While `active`, the toasts stand above this element (a bar fixed at the foot of the screen,
 * like the product page's Add to Cart on a phone), so none ever covers it (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md). The
 * height is followed as it changes (a limit's note wrapping, the safe area).
 */
export function useToastClearance(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const element = ref.current
    if (!active || !element) return
    const root = document.documentElement
    const observer = new ResizeObserver(() =>
      root.style.setProperty(TOAST_CLEARANCE_VAR, `${element.getBoundingClientRect().height}px`),
    )
    observer.observe(element)
    return () => {
      observer.disconnect()
      root.style.removeProperty(TOAST_CLEARANCE_VAR)
    }
  }, [ref, active])
}
