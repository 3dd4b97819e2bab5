import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { usePwaState } from '../hooks/use-pwa-state'
import { installApp } from '../install-prompt'

/** "Install app", shown only while the browser offers installation. */
export function InstallButton({ className }: { className?: string }) {
  const { installAvailable } = usePwaState()
  if (!installAvailable) return null
  return (
    <button
      type="button"
      className={cx(button({ variant: 'outline', size: 'sm' }), className)}
      aria-label="Install app"
      onClick={() => void installApp()}
    >
      <svg
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden
        focusable="false"
      >
        <path d="M12 4v11m-5-5 5 5 5-5M5 20h14" />
      </svg>
      <span className={css({ display: { base: 'none', sm: 'inline' } })}>Install app</span>
    </button>
  )
}
