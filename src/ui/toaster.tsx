import { Toast, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast'
import { createStyleContext } from 'styled-system/jsx'
import { toast } from 'styled-system/recipes'

const { withProvider, withContext } = createStyleContext(toast)

const Root = withProvider(Toast.Root, 'root')
const Title = withContext(Toast.Title, 'title')
const Description = withContext(Toast.Description, 'description')
const CloseTrigger = withContext(Toast.CloseTrigger, 'closeTrigger')

/** The app's one toaster (SPEC.md §9): bottom-right, 4000 ms, 3 visible, 14 px gap, Alt+T. */
export const toaster = createToaster({
  placement: 'bottom-end',
  duration: 4000,
  max: 3,
  gap: 14,
  overlap: false,
  hotkey: ['altKey', 'KeyT'],
})

/** Mount once, at the root of the app. */
export function Toaster() {
  return (
    <ArkToaster toaster={toaster}>
      {(t) => (
        <Root>
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
