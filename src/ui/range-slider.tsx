import { useRef, type CSSProperties } from 'react'
import { css } from 'styled-system/css'
import { slider } from 'styled-system/recipes'
import type * as Ark from './ark-range-slider'
import { lazyModule, useLazyPart } from './lazy-part'

// The sliders sit in the menu's filter sidebar, on screen at once but only used when touched:
// this static copy draws them with the same classes, attributes and thumb positions as Ark UI
// does, and Ark UI's slider is fetched on the first hover, press or focus (see lazy-part.ts).
const arkPart = lazyModule<typeof Ark>(() => import('./ark-range-slider'))

const classes = slider()
// ark-range-slider.tsx draws the same row: kept apart so this copy is not a chunk of its own.
const rowClass = css({
  alignItems: 'baseline',
  display: 'flex',
  justifyContent: 'space-between',
})

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
 * Zag's thumb offset for `thumbAlignment="contain"` (the thumb stays inside the track), written
 * in CSS with the recipe's thumb size so it is right before anything is measured.
 */
function thumbOffset(value: number, min: number, max: number): string {
  const fraction = (value - min) / (max - min)
  return `calc(${fraction * 100}% - ${fraction} * var(--sizes-5) + var(--sizes-5) / 2)`
}

/**
 * A two-thumb range slider (Ark UI). Steps clamp to min/max; page keys and shift+arrow move ten
 * steps (SPEC.md §9).
 */
export function RangeSlider(props: RangeSliderProps) {
  const { module: ark, intent, handlers } = useLazyPart(arkPart)
  const thumb = useRef<HTMLDivElement>(null)
  if (ark) {
    const rect = thumb.current?.getBoundingClientRect()
    return (
      <ark.ArkRangeSlider
        {...props}
        thumbSize={rect ? { width: rect.width, height: rect.height } : undefined}
        intent={intent.current}
      />
    )
  }
  const { label, min, max, value, format = String } = props
  const rootStyle = {
    '--slider-thumb-offset-0': thumbOffset(value[0], min, max),
    '--slider-thumb-offset-1': thumbOffset(value[1], min, max),
    '--slider-thumb-transform': 'translateX(-50%)',
    '--slider-range-start': `${((value[0] - min) / (max - min)) * 100}%`,
    '--slider-range-end': `${100 - ((value[1] - min) / (max - min)) * 100}%`,
  } as CSSProperties
  const part = (name: string) => ({
    'data-scope': 'slider',
    'data-part': name,
    'data-orientation': 'horizontal',
    dir: 'ltr' as const,
  })
  return (
    <div {...part('root')} {...handlers} className={classes.root} style={rootStyle}>
      <div className={rowClass}>
        <label {...part('label')} className={classes.label} style={{ userSelect: 'none' }}>
          {label}
        </label>
        <span {...part('value-text')} className={classes.valueText}>
          {format(value[0])} – {format(value[1])}
        </span>
      </div>
      <div
        {...part('control')}
        className={classes.control}
        style={{ touchAction: 'none', userSelect: 'none', position: 'relative' }}
      >
        <div {...part('track')} className={classes.track} style={{ position: 'relative' }}>
          <div
            {...part('range')}
            className={classes.range}
            style={{
              position: 'absolute',
              left: 'var(--slider-range-start)',
              right: 'var(--slider-range-end)',
            }}
          />
        </div>
        {([0, 1] as const).map((index) => (
          <div
            key={index}
            ref={index === 0 ? thumb : undefined}
            {...part('thumb')}
            data-index={index}
            role="slider"
            tabIndex={0}
            aria-label={`${index === 0 ? 'Minimum' : 'Maximum'} ${label}`}
            aria-orientation="horizontal"
            aria-valuemin={min}
            aria-valuemax={max}
            aria-valuenow={value[index]}
            aria-valuetext={format(value[index])}
            className={classes.thumb}
            style={{
              position: 'absolute',
              transform: 'var(--slider-thumb-transform)',
              insetInlineStart: `var(--slider-thumb-offset-${index})`,
            }}
          />
        ))}
      </div>
    </div>
  )
}
