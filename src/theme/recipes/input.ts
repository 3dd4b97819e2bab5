import { defineRecipe } from '@pandacss/dev'

export const inputRecipe = defineRecipe({
  className: 'input',
  base: {
    bg: 'bg.surface',
    borderColor: 'border.strong',
    borderRadius: 'md',
    borderWidth: '1px',
    color: 'fg.default',
    fontSize: 'sm',
    outline: 'none',
    px: '3',
    transitionDuration: 'fast',
    transitionProperty: 'border-color, box-shadow',
    w: 'full',
    _placeholder: { color: 'fg.subtle' },
    _focusVisible: { borderColor: 'accent.fg', boxShadow: '0 0 0 3px var(--colors-accent-subtle)' },
    _disabled: { bg: 'bg.muted', cursor: 'not-allowed' },
  },
  defaultVariants: { size: 'md' },
  variants: {
    size: {
      md: { h: '10' },
      lg: { h: '12', fontSize: 'md' },
      area: { minH: '32', py: '2', resize: 'vertical' },
    },
  },
})
