import { Switch as ArkSwitch } from '@ark-ui/react/switch'
import type { ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { switchRecipe } from 'styled-system/recipes'

const { withProvider, withContext } = createStyleContext(switchRecipe)

const Root = withProvider(ArkSwitch.Root, 'root')
const Control = withContext(ArkSwitch.Control, 'control')
const Thumb = withContext(ArkSwitch.Thumb, 'thumb')
const Label = withContext(ArkSwitch.Label, 'label')

export type SwitchProps = {
  label: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
  name?: string
}

/** A labelled on/off switch (Ark UI); the hidden input keeps it a real form control. */
export function Switch({ label, checked, onCheckedChange, disabled, name }: SwitchProps) {
  return (
    <Root
      checked={checked}
      onCheckedChange={(details) => onCheckedChange(details.checked)}
      disabled={disabled}
      name={name}
    >
      <Control>
        <Thumb />
      </Control>
      <Label>{label}</Label>
      <ArkSwitch.HiddenInput />
    </Root>
  )
}
