import { Slider as ArkSlider } from '@ark-ui/react/slider'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { createStyleContext } from 'styled-system/jsx'
import { slider } from 'styled-system/recipes'

const { withProvider, withContext } = createStyleContext(slider)

const Root = withProvider(ArkSlider.Root, 'root')
const Label = withContext(ArkSlider.Label, 'label')
const ValueText = withContext(ArkSlider.ValueText, 'valueText')
const Control = withContext(ArkSlider.Control, 'control')
const Track = withContext(ArkSlider.Track, 'track')
const Range = withContext(ArkSlider.Range, 'range')
const Thumb = withContext(ArkSlider.Thumb, 'thumb')

const rowClass = css({ alignItems: 'baseline', display: 'flex', justifyContent: 'space-between' })

export type RangeSliderProps = {
  label: string
  min: number
  max: number
  step: number
  value: [number, number]
  /** Called when the shopper lets go (pointer up or key press), not on every move. */
  onValueCommit: (value: [number, number]) => void
  format?: (value: number) => string
}

/**
 * A two-thumb range slider (Ark UI). Steps clamp to min/max; page keys and shift+arrow move ten
 * steps (SPEC.md §9).
 */
export function RangeSlider({
  label,
  min,
  max,
  step,
  value,
  onValueCommit,
  format = String,
}: RangeSliderProps) {
  const [draft, setDraft] = useState<number[]>(value)
  const [low, high] = value
  useEffect(() => setDraft([low, high]), [low, high])
  return (
    <Root
      min={min}
      max={max}
      step={step}
      largeStep={step * 10}
      value={draft}
      onValueChange={(details) => setDraft(details.value)}
      onValueChangeEnd={(details) => onValueCommit([details.value[0]!, details.value[1]!])}
      thumbAlignment="contain"
      getAriaValueText={(details) => format(details.value)}
    >
      <div className={rowClass}>
        <Label>{label}</Label>
        <ValueText>
          {format(draft[0]!)} – {format(draft[1]!)}
        </ValueText>
      </div>
      <Control>
        <Track>
          <Range />
        </Track>
        <Thumb index={0} aria-label={`Minimum ${label}`}>
          <ArkSlider.HiddenInput />
        </Thumb>
        <Thumb index={1} aria-label={`Maximum ${label}`}>
          <ArkSlider.HiddenInput />
        </Thumb>
      </Control>
    </Root>
  )
}
