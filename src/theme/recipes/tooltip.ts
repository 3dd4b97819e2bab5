import { tooltipAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

// A short label for an icon-only control (Ark UI Tooltip).
export const tooltipRecipe = defineSlotRecipe({
  className: 'tooltip',
  jsx: [/Tooltip/],
  slots: tooltipAnatomy.keys(),
  base: {
    content: {
      bg: 'fg.default',
      borderRadius: 'sm',
      boxShadow: 'raised',
      color: 'bg.surface',
      fontSize: 'xs',
      fontWeight: 'medium',
      px: '2',
      py: '1',
      zIndex: 'tooltip',
    },
  },
})
