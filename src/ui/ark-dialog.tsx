import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { dialog } from 'styled-system/recipes'

const { withRootProvider, withContext } = createStyleContext(dialog)

const Root = withRootProvider(ArkDialog.Root)
const Backdrop = withContext(ArkDialog.Backdrop, 'backdrop')
const Positioner = withContext(ArkDialog.Positioner, 'positioner')
const Content = withContext(ArkDialog.Content, 'content')
export const DialogTitle = withContext(ArkDialog.Title, 'title')
export const DialogDescription = withContext(ArkDialog.Description, 'description')
const CloseTrigger = withContext(ArkDialog.CloseTrigger, 'closeTrigger')

export type DialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** `center` for a modal, `start` for a side drawer. */
  placement?: 'center' | 'start'
  /** Accessible label of the close button. */
  closeLabel?: string
  children: ReactNode
}

/**
 * A modal or side drawer (Ark UI): focus is trapped, Escape and a click on the backdrop close it.
 * Put a `DialogTitle` inside so it has an accessible name.
 */
export function Dialog({
  open,
  onOpenChange,
  placement = 'center',
  closeLabel = 'Close',
  children,
}: DialogProps) {
  return (
    <Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      placement={placement}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Backdrop />
        <Positioner>
          <Content>
            <CloseTrigger aria-label={closeLabel}>
              <svg
                width="18"
                height="18"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden
              >
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </CloseTrigger>
            {children}
          </Content>
        </Positioner>
      </Portal>
    </Root>
  )
}
