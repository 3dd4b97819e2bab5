import { switchAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

// An on/off toggle (Ark UI Switch) with its label beside it.
export const switchRecipe = defineSlotRecipe({
  className: 'switch',
  jsx: [/Switch/],
  slots: switchAnatomy.keys(),
  base: {
    control: {
      alignItems: 'center',
      bg: 'border.strong',
      borderRadius: 'full',
      cursor: 'pointer',
      display: 'inline-flex',
      flexShrink: '0',
      h: '5',
      p: '0.5',
      transitionDuration: 'fast',
      transitionProperty: 'background',
      w: '9',
      _checked: { bg: 'accent.solid' },
      _disabled: { cursor: 'not-allowed', opacity: 0.5 },
      // The focused input is hidden; its ring shows on the control (WCAG 2.4.7).
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    },
    label: { fontSize: 'sm', fontWeight: 'medium' },
    root: {
      alignItems: 'center',
      display: 'inline-flex',
      gap: '2',
      position: 'relative',
      _focusVisible: { outline: 'none' },
    },
    thumb: {
      bg: 'bg.surface',
      borderRadius: 'full',
      boxShadow: 'card',
      h: '4',
      transitionDuration: 'fast',
      transitionProperty: 'transform',
      w: '4',
      _checked: { transform: 'translateX(16px)' },
    },
  },
})
