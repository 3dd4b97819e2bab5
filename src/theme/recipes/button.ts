import { defineRecipe } from '@pandacss/dev'

export const buttonRecipe = defineRecipe({
  className: 'button',
  jsx: ['Button'],
  base: {
    alignItems: 'center',
    borderRadius: 'full',
    cursor: 'pointer',
    display: 'inline-flex',
    fontWeight: 'semibold',
    gap: '2',
    justifyContent: 'center',
    lineHeight: '1',
    outline: 'none',
    textDecoration: 'none',
    transitionDuration: 'normal',
    transitionProperty: 'background, border-color, color, box-shadow',
    whiteSpace: 'nowrap',
    _disabled: { cursor: 'not-allowed', opacity: 0.5 },
    _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    _touch: { minH: '11', minW: '11' },
  },
  defaultVariants: { size: 'md', variant: 'solid' },
  variants: {
    size: {
      sm: { fontSize: 'sm', h: '8', px: '3' },
      md: { fontSize: 'sm', h: '10', px: '4' },
      lg: { fontSize: 'md', h: '12', px: '6' },
    },
    variant: {
      deal: { bg: 'deal.solid', color: 'fg.onAccent', _hover: { bg: 'deal.solidHover' } },
      ghost: { bg: 'transparent', color: 'fg.default', _hover: { bg: 'bg.muted' } },
      outline: {
        bg: 'transparent',
        borderColor: 'border.strong',
        borderWidth: '1px',
        color: 'fg.default',
        _hover: { bg: 'bg.muted' },
      },
      light: { bg: 'bg.surface', color: 'accent.fg', _hover: { bg: 'accent.subtle' } },
      solid: { bg: 'accent.solid', color: 'fg.onAccent', _hover: { bg: 'accent.solidHover' } },
    },
  },
})
