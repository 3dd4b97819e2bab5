import { sliderAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

export const sliderRecipe = defineSlotRecipe({
  className: 'slider',
  jsx: ['RangeSlider', /Slider/],
  slots: sliderAnatomy.keys(),
  base: {
    control: { alignItems: 'center', display: 'flex', h: '6', position: 'relative' },
    label: { color: 'fg.default', fontSize: 'sm', fontWeight: 'semibold' },
    range: { bg: 'accent.solid', borderRadius: 'full', h: 'full' },
    root: { display: 'flex', flexDirection: 'column', gap: '2', w: 'full' },
    thumb: {
      bg: 'bg.surface',
      borderColor: 'accent.solid',
      borderRadius: 'full',
      borderWidth: '2px',
      boxShadow: 'card',
      cursor: 'grab',
      // 24 px: WCAG 2.5.8's minimum without leaning on the spacing exception.
      h: '6',
      outline: 'none',
      w: '6',
      _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg', outlineOffset: '2px' },
    },
    track: { bg: 'bg.muted', borderRadius: 'full', flex: '1', h: '1.5', overflow: 'hidden' },
    valueText: { color: 'fg.muted', fontSize: 'sm', fontVariantNumeric: 'tabular-nums' },
  },
})
