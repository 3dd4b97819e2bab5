import { css } from 'styled-system/css'
import { Tooltip } from '../../../ui/tooltip'
import { useTheme } from '../hooks/use-theme'

const icon = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
}

/** Light/dark switch for the storefront header. */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggle } = useTheme()
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'
  return (
    <Tooltip label={label}>
      <button
        type="button"
        aria-label={label}
        onClick={toggle}
        className={className ?? css({ cursor: 'pointer' })}
      >
        {theme === 'dark' ? (
          <svg aria-hidden="true" {...icon}>
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
          </svg>
        ) : (
          <svg aria-hidden="true" {...icon}>
            <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
          </svg>
        )}
        <span className={css({ srOnly: true })}>Theme</span>
      </button>
    </Tooltip>
  )
}
