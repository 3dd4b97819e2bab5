import { useId, useState, type ReactNode } from 'react'
import { checkbox } from 'styled-system/recipes'

const classes = checkbox()

/** Ark UI's visually hidden input, so a tap on the label and Space on the input work natively. */
const hiddenInput = {
  border: 0,
  clip: 'rect(0px, 0px, 0px, 0px)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  width: '1px',
  whiteSpace: 'nowrap',
  overflowWrap: 'normal',
} as const

export type CheckboxProps = {
  label: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  name?: string
  value?: string
  disabled?: boolean
}

/**
 * A labelled checkbox with the checkbox recipe. It is the browser's own checkbox (a label around
 * a visually hidden input) drawn with the markup and data attributes of Ark UI's checkbox, whose
 * machine only mirrored that input: the filter lists render dozens of them at once, and this
 * needs no JavaScript beyond React.
 */
export function Checkbox({
  label,
  checked,
  onCheckedChange,
  name,
  value,
  disabled,
}: CheckboxProps) {
  const id = `checkbox:${useId()}`
  const [focusVisible, setFocusVisible] = useState(false)
  const state = {
    'data-scope': 'checkbox',
    'data-state': checked ? 'checked' : 'unchecked',
    'data-disabled': disabled ? '' : undefined,
    'data-focus-visible': focusVisible ? '' : undefined,
    dir: 'ltr' as const,
  }
  return (
    <label {...state} data-part="root" id={id} htmlFor={`${id}:input`} className={classes.root}>
      <div
        {...state}
        data-part="control"
        id={`${id}:control`}
        aria-hidden
        className={classes.control}
      >
        <div {...state} data-part="indicator" hidden={!checked} className={classes.indicator}>
          <svg viewBox="0 0 12 12" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
            <path d="M2.5 6.5 5 9l4.5-6" />
          </svg>
        </div>
      </div>
      <span {...state} data-part="label" id={`${id}:label`} className={classes.label}>
        {label}
      </span>
      <input
        id={`${id}:input`}
        type="checkbox"
        aria-labelledby={`${id}:label`}
        checked={checked}
        onChange={(event) => onCheckedChange(event.target.checked)}
        onFocus={(event) => setFocusVisible(event.target.matches(':focus-visible'))}
        onBlur={() => setFocusVisible(false)}
        name={name}
        value={value ?? 'on'}
        disabled={disabled}
        style={hiddenInput}
      />
    </label>
  )
}
