import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'

type Props = {
  open: boolean
  title: string
  description: ReactNode
  confirmLabel?: string
  busy?: boolean
  onCancel: () => void
  onConfirm: () => void
}

/** A question that must be answered: Cancel or Delete. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel = 'Delete',
  busy,
  onCancel,
  onConfirm,
}: Props) {
  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      role="alertdialog"
      title={title}
      description={description}
    >
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          disabled={busy}
          onClick={onConfirm}
          className={css({ bg: 'danger.solid', _hover: { bg: 'danger.fg' } })}
        >
          {confirmLabel}
        </Button>
      </div>
    </PanelDialog>
  )
}
