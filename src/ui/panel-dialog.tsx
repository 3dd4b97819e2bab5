import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { dialog } from 'styled-system/recipes'

const classes = dialog({ placement: 'center' })

const widths = {
  md: css({ maxW: 'md' }),
  lg: css({ maxW: '2xl' }),
  xl: css({ maxW: '4xl' }),
} as const

export type PanelDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  size?: keyof typeof widths
  title: ReactNode
  description?: ReactNode
  closeLabel?: string
  /** A confirmation that must be answered: no close button, the backdrop does not close it. */
  role?: 'dialog' | 'alertdialog'
  /** Focus this element when the dialog opens (defaults to the first focusable one). */
  initialFocusEl?: () => HTMLElement | null
  contentClassName?: string
  children: ReactNode
}

/**
 * A centred modal of a chosen width (Ark UI Dialog with the dialog recipe): focus is trapped,
 * Escape closes it, the title names it.
 */
export function PanelDialog({
  open,
  onOpenChange,
  size = 'md',
  title,
  description,
  closeLabel = 'Close',
  role = 'dialog',
  initialFocusEl,
  contentClassName,
  children,
}: PanelDialogProps) {
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role={role}
      closeOnInteractOutside={role === 'dialog'}
      initialFocusEl={initialFocusEl}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner className={classes.positioner}>
          <ArkDialog.Content className={cx(classes.content, widths[size], contentClassName)}>
            <ArkDialog.Title className={cx(classes.title, css({ fontSize: 'xl', pr: '8' }))}>
              {title}
            </ArkDialog.Title>
            {description && (
              <ArkDialog.Description className={cx(classes.description, css({ mt: '1' }))}>
                {description}
              </ArkDialog.Description>
            )}
            {role === 'dialog' && (
              <ArkDialog.CloseTrigger aria-label={closeLabel} className={classes.closeTrigger}>
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
              </ArkDialog.CloseTrigger>
            )}
            <div className={css({ mt: '4' })}>{children}</div>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  )
}
