import { defineRecipe } from '@pandacss/dev'

export const skeletonRecipe = defineRecipe({
  className: 'skeleton',
  base: {
    animation: 'pulse 1.4s ease-in-out infinite',
    bg: 'bg.muted',
    borderRadius: 'md',
  },
})
