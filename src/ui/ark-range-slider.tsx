import { Slider as ArkSlider } from '@ark-ui/react/slider'
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { createStyleContext } from 'styled-system/jsx'
import { slider } from 'styled-system/recipes'
import { replayPress, restoreFocus, type Intent } from './lazy-part'
import type { RangeSliderProps } from './range-slider'

/** As range-slider.tsx's static copy (not imported from it, which would split it off). */
const rowClass = css({ alignItems: 'baseline', display: 'flex', justifyContent: 'space-between' })

const { withProvider, withContext } = createStyleContext(slider)

const Root = withProvider(ArkSlider.Root, 'root')
const Label = withContext(ArkSlider.Label, 'label')
const ValueText = withContext(ArkSlider.ValueText, 'valueText')
const Control = withContext(ArkSlider.Control, 'control')
const Track = withContext(ArkSlider.Track, 'track')
const Range = withContext(ArkSlider.Range, 'range')
const Thumb = withContext(ArkSlider.Thumb, 'thumb')

export type ArkRangeSliderProps = RangeSliderProps & {
  /** The static copy's thumb, measured, so the thumbs land where the copy drew them. */
  thumbSize: { width: number; height: number } | undefined
  intent: Intent
}

/**
 * The Ark UI slider behind `RangeSlider` (src/ui/range-slider.tsx). Steps clamp to min/max; page
 * keys and shift+arrow move ten steps (SPEC.md §9).
 */
export function ArkRangeSlider({
  label,
  min,
  max,
  step,
  value,
  onValueCommit,
  format = String,
  thumbSize,
  intent,
}: ArkRangeSliderProps) {
  const [draft, setDraft] = useState<number[]>(value)
  const [low, high] = value
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => setDraft([low, high]), [low, high])
  useEffect(() => {
    // What the shopper did to the static copy while this module was on its way.
    restoreFocus(root.current, intent)
    replayPress(root.current, intent.press)
  }, [intent])
  return (
    <Root
      ref={root}
      thumbSize={thumbSize}
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
