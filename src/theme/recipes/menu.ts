import { menuAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

// A dropdown menu of actions (Ark UI Menu): arrow keys move, Enter picks, Escape closes.
export const menuRecipe = defineSlotRecipe({
  className: 'menu',
  jsx: [/Menu/],
  slots: menuAnatomy.keys(),
  base: {
    content: {
      bg: 'bg.surface',
      borderColor: 'border.default',
      borderRadius: 'md',
      borderWidth: '1px',
      boxShadow: 'raised',
      display: 'flex',
      flexDirection: 'column',
      minW: '40',
      outline: 'none',
      p: '1',
      zIndex: 'dropdown',
      _closed: { display: 'none' },
    },
    item: {
      alignItems: 'center',
      borderRadius: 'sm',
      cursor: 'pointer',
      display: 'flex',
      fontSize: 'sm',
      gap: '2',
      px: '2',
      py: '1.5',
      // The highlighted item is where the keyboard is (WCAG 2.4.7); 44 px tall for a finger.
      _touch: { minH: '11' },
      _highlighted: {
        bg: 'bg.muted',
        outline: '2px solid',
        outlineColor: 'focusRing',
        outlineOffset: '-2px',
      },
      _disabled: { cursor: 'not-allowed', opacity: 0.5 },
    },
    itemGroupLabel: {
      color: 'fg.subtle',
      fontSize: 'xs',
      fontWeight: 'semibold',
      px: '2',
      py: '1',
    },
    positioner: { zIndex: 'popover' },
    trigger: { cursor: 'pointer' },
  },
})
