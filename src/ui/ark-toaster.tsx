import { Toast, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast'
import { useEffect } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { toast } from 'styled-system/recipes'

const { withProvider, withContext } = createStyleContext(toast)

const Root = withProvider(Toast.Root, 'root')
const Title = withContext(Toast.Title, 'title')
const Description = withContext(Toast.Description, 'description')
const CloseTrigger = withContext(Toast.CloseTrigger, 'closeTrigger')

/**
 * The app's one toaster (SPEC.md §9): bottom-right, 4000 ms, 3 visible, 14 px gap, Alt+T. Its
 * foot stands above a bar fixed at the bottom of the screen (use-toast-clearance.ts), so a
 * toast never covers the phone's Add to Cart (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
 */
export const toaster = createToaster({
  placement: 'bottom-end',
  offsets: {
    top: '1rem',
    left: '1rem',
    right: '1rem',
    bottom: 'calc(1rem + var(--toast-clearance, 0px))',
  },
  duration: 4000,
  max: 3,
  gap: 14,
  overlap: false,
  hotkey: ['altKey', 'KeyT'],
})

export type ToastOptions = Parameters<typeof toaster.create>[0]

/**
 * The toast region. Tells `onReady` how to show a toast once the region listens to the store:
 * Zag starts the region's machine (and its store subscription) in a microtask after mounting,
 * so a toast created before that would be lost; a macrotask comes after it.
 */
export function Toaster({
  onReady,
}: {
  onReady: (create: ((options: ToastOptions) => void) | undefined) => void
}) {
  useEffect(() => {
    const timer = setTimeout(() => onReady((options) => void toaster.create(options)))
    return () => {
      clearTimeout(timer)
      onReady(undefined)
    }
  }, [onReady])
  return (
    <ArkToaster toaster={toaster}>
      {(t) => (
        // A toast whose words the page's live region already said (meta.silent) is not a live
        // region itself, so a screen reader hears them once.
        <Root aria-live={t.meta?.silent ? 'off' : undefined}>
          <Title>{t.title}</Title>
          {t.description && <Description>{t.description}</Description>}
          <CloseTrigger aria-label="Dismiss">
            <svg
              width="14"
              height="14"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden
            >
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </CloseTrigger>
        </Root>
      )}
    </ArkToaster>
  )
}
