import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { usePwaState } from '../hooks/use-pwa-state'
import { applyUpdate } from '../service-worker'

/**
 * Tells the user a new deployment is ready and lets them switch to it when they choose; the
 * running page keeps working on the old version until then.
 */
export function UpdatePrompt() {
  const { updateWaiting, updating } = usePwaState()
  if (!updateWaiting) return null
  return (
    <div
      role="status"
      className={css({
        position: 'fixed',
        insetX: '4',
        bottom: '4',
        zIndex: 'toast',
        mx: 'auto',
        maxW: 'md',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: '4',
        bg: 'bg.inverse',
        color: 'fg.onInverse',
        borderRadius: 'lg',
        boxShadow: 'raised',
        px: '4',
        py: '3',
        fontSize: 'sm',
        fontWeight: 'medium',
      })}
    >
      <span>A new version is available</span>
      <button
        type="button"
        className={button({ variant: 'light', size: 'sm' })}
        onClick={applyUpdate}
        disabled={updating}
      >
        Reload
      </button>
    </div>
  )
}
