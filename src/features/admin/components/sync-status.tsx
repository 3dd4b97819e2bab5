import { css } from 'styled-system/css'

type Props = {
  online: boolean
  waiting: number
  syncing: boolean
  error: string | null
}

/** Where the device stands with the server: offline, changes waiting, errors. */
export function SyncStatus({ online, waiting, syncing, error }: Props) {
  const text = !online
    ? `Offline: showing the orders on this device.${waiting ? ` ${waiting} status ${waiting === 1 ? 'change' : 'changes'} waiting to sync.` : ''}`
    : waiting
      ? `${waiting} status ${waiting === 1 ? 'change' : 'changes'} waiting to sync…`
      : error
        ? `Sync problem: ${error}`
        : syncing
          ? 'Syncing…'
          : 'All changes synced'
  const tone = !online || error ? 'deal.fg' : waiting ? 'deal.fg' : 'fg.muted'
  return (
    <p
      role="status"
      data-testid="sync-status"
      className={css({
        alignItems: 'center',
        color: tone,
        display: 'flex',
        fontSize: 'sm',
        gap: '2',
      })}
    >
      <span
        aria-hidden
        className={css({
          bg: online && !error ? 'accent.solid' : 'deal.solid',
          borderRadius: 'full',
          display: 'inline-block',
          h: '2',
          w: '2',
        })}
      />
      {text}
    </p>
  )
}
