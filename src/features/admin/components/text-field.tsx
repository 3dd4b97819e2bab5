import { useId, type InputHTMLAttributes } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { fieldError, fieldLabel } from './admin-styles'

const invalid = css({ '&[aria-invalid=true]': { borderColor: 'danger.solid' } })

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string
  value: string
  onValueChange: (value: string) => void
  error?: string
  multiline?: boolean
}

/** A labelled text or number input with its error under it. */
export function TextField({
  label,
  value,
  onValueChange,
  error,
  multiline,
  className,
  ...rest
}: Props) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={className}>
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          rows={4}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cx(input({ size: 'area' }), css({ fontFamily: 'inherit' }), invalid)}
        />
      ) : (
        <input
          id={id}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cx(input(), invalid)}
          {...rest}
        />
      )}
      {error && (
        <p id={errorId} className={fieldError}>
          {error}
        </p>
      )}
    </div>
  )
}
