import { checkboxAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

export const checkboxRecipe = defineSlotRecipe({
  className: 'checkbox',
  jsx: ['Checkbox', /Checkbox/],
  slots: checkboxAnatomy.keys(),
  base: {
    control: {
      alignItems: 'center',
      bg: 'bg.surface',
      borderColor: 'border.strong',
      borderRadius: 'sm',
      borderWidth: '1.5px',
      color: 'fg.onAccent',
      display: 'inline-flex',
      flexShrink: '0',
      h: '4.5',
      justifyContent: 'center',
      transitionDuration: 'fast',
      transitionProperty: 'background, border-color',
      w: '4.5',
      _checked: { bg: 'accent.solid', borderColor: 'accent.solid' },
      _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg', outlineOffset: '2px' },
      _groupHover: { borderColor: 'accent.fg' },
    },
    indicator: { '& svg': { h: '3', w: '3' } },
    label: { color: 'fg.default', fontSize: 'sm', userSelect: 'none' },
    root: {
      alignItems: 'center',
      cursor: 'pointer',
      display: 'inline-flex',
      gap: '2.5',
      py: '1',
      _disabled: { cursor: 'not-allowed', opacity: 0.5 },
    },
  },
})
