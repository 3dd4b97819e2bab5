import { defineRecipe } from '@pandacss/dev'

export const badgeRecipe = defineRecipe({
  className: 'badge',
  base: {
    alignItems: 'center',
    borderRadius: 'full',
    display: 'inline-flex',
    fontSize: 'xs',
    fontWeight: 'semibold',
    gap: '1',
    letterSpacing: 'wide',
    lineHeight: '1',
    px: '2',
    py: '1',
    whiteSpace: 'nowrap',
  },
  defaultVariants: { tone: 'neutral' },
  variants: {
    tone: {
      accent: { bg: 'accent.subtle', color: 'accent.fg' },
      danger: { bg: 'danger.subtle', color: 'danger.fg' },
      deal: { bg: 'deal.subtle', color: 'deal.fg' },
      dealSolid: { bg: 'deal.solid', color: 'fg.onAccent' },
      neutral: { bg: 'bg.muted', color: 'fg.muted' },
      solid: { bg: 'accent.solid', color: 'fg.onAccent' },
    },
  },
})
