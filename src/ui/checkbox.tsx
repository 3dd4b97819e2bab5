import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox'
import type { ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { checkbox } from 'styled-system/recipes'

const { withProvider, withContext } = createStyleContext(checkbox)

const Root = withProvider(ArkCheckbox.Root, 'root')
const Control = withContext(ArkCheckbox.Control, 'control')
const Indicator = withContext(ArkCheckbox.Indicator, 'indicator')
const Label = withContext(ArkCheckbox.Label, 'label')

export type CheckboxProps = {
  label: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  name?: string
  value?: string
  disabled?: boolean
}

/** A labelled checkbox (Ark UI) with the checkbox recipe; the hidden input keeps forms native. */
export function Checkbox({
  label,
  checked,
  onCheckedChange,
  name,
  value,
  disabled,
}: CheckboxProps) {
  return (
    <Root
      checked={checked}
      onCheckedChange={(details) => onCheckedChange(details.checked === true)}
      name={name}
      value={value}
      disabled={disabled}
    >
      <Control>
        <Indicator>
          <svg viewBox="0 0 12 12" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
            <path d="M2.5 6.5 5 9l4.5-6" />
          </svg>
        </Indicator>
      </Control>
      <Label>{label}</Label>
      <ArkCheckbox.HiddenInput />
    </Root>
  )
}
