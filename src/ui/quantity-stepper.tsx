import { css } from 'styled-system/css'
import { MinusIcon, PlusIcon } from './icons'

// 44 × 44 px: a thumb's target on phones (WCAG 2.5.5); never squeezed by a narrow row.
const stepButton = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: 0,
  w: '11',
  h: '11',
  cursor: 'pointer',
  color: 'fg.default',
  _hover: { bg: 'bg.muted' },
  _disabled: { opacity: 0.4, cursor: 'not-allowed', _hover: { bg: 'transparent' } },
  // Inside the rounded, clipped group the global ring is drawn inward.
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
})

/** − value + with a typed field between; never below `min` nor above `max`. */
export function QuantityStepper({
  value,
  onChange,
  min = 1,
  max = 999,
  label = 'Quantity',
  disabled,
}: {
  value: number
  onChange: (value: number) => void
  min?: number
  max?: number
  label?: string
  disabled?: boolean
}) {
  const clamp = (n: number) => Math.max(min, Math.min(max, Math.floor(n)))
  return (
    <div
      role="group"
      aria-label={label}
      className={css({
        display: 'inline-flex',
        flexShrink: 0,
        alignItems: 'center',
        borderWidth: '1px',
        borderColor: 'border.strong',
        borderRadius: 'full',
        overflow: 'hidden',
        bg: 'bg.surface',
      })}
    >
      <button
        type="button"
        className={stepButton}
        aria-label="Decrease quantity"
        disabled={disabled || value <= min}
        onClick={() => onChange(clamp(value - 1))}
      >
        <MinusIcon size={16} />
      </button>
      <input
        type="number"
        inputMode="numeric"
        aria-label={label}
        min={min}
        max={max}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          const next = Number(event.target.value)
          if (Number.isFinite(next) && event.target.value !== '') onChange(clamp(next))
        }}
        className={css({
          w: '12',
          h: '11',
          textAlign: 'center',
          fontWeight: 'semibold',
          bg: 'transparent',
          _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
          appearance: 'textfield',
          '&::-webkit-inner-spin-button, &::-webkit-outer-spin-button': {
            WebkitAppearance: 'none',
            margin: 0,
          },
        })}
      />
      <button
        type="button"
        className={stepButton}
        aria-label="Increase quantity"
        disabled={disabled || value >= max}
        onClick={() => onChange(clamp(value + 1))}
      >
        <PlusIcon size={16} />
      </button>
    </div>
  )
}
