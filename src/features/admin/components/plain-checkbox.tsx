import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

const label = css({
  alignItems: 'center',
  cursor: 'pointer',
  display: 'inline-flex',
  fontSize: 'sm',
  gap: '2',
  // The label presses the box: 24 px tall at least, a finger's minimum (WCAG 2.5.8).
  minH: '6',
  '& input': { accentColor: 'accent.solid', h: '4', w: '4' },
  '&:has(input:disabled)': { cursor: 'not-allowed', opacity: 0.6 },
})

/**
 * The browser's own checkbox with its label around it, as Admin Settings' "Closed" days are: in a
 * form staff fill at the counter it is pressed like any other field, with nothing drawn over it.
 */
export function PlainCheckbox({
  children,
  checked,
  onCheckedChange,
  disabled,
}: {
  children: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
}) {
  return (
    <label className={label}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onCheckedChange(e.target.checked)}
      />
      {children}
    </label>
  )
}
