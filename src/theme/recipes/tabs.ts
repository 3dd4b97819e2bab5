import { tabsAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

export const tabsRecipe = defineSlotRecipe({
  className: 'tabs',
  jsx: [/Tabs/],
  slots: tabsAnatomy.keys(),
  base: {
    content: { pt: '6', _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' } },
    indicator: { bg: 'accent.solid', bottom: '-1px', h: '2px', width: 'var(--width)' },
    list: {
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      display: 'flex',
      gap: { base: '4', md: '8' },
      overflowX: 'auto',
      position: 'relative',
    },
    root: { w: 'full' },
    trigger: {
      color: 'fg.muted',
      cursor: 'pointer',
      fontSize: { base: 'sm', md: 'md' },
      fontWeight: 'semibold',
      py: '3',
      whiteSpace: 'nowrap',
      _hover: { color: 'fg.default' },
      _selected: { color: 'accent.fg' },
      _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg', outlineOffset: '2px' },
    },
  },
})
