import { definePreset } from '@pandacss/dev'
import { tokens } from './tokens'
import { semanticTokens } from './semantic-tokens'
import { badgeRecipe } from './recipes/badge'
import { buttonRecipe } from './recipes/button'
import { checkboxRecipe } from './recipes/checkbox'
import { dialogRecipe } from './recipes/dialog'
import { inputRecipe } from './recipes/input'
import { menuRecipe } from './recipes/menu'
import { selectRecipe } from './recipes/select'
import { skeletonRecipe } from './recipes/skeleton'
import { sliderRecipe } from './recipes/slider'
import { switchRecipe } from './recipes/switch'
import { tabsRecipe } from './recipes/tabs'
import { toastRecipe } from './recipes/toast'
import { tooltipRecipe } from './recipes/tooltip'

export const humoPreset = definePreset({
  name: 'humo',
  conditions: { dark: '.dark &, [data-theme=dark] &' },
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg.default', fontFamily: 'body' },
    body: { minHeight: '100dvh', WebkitFontSmoothing: 'antialiased' },
    a: { color: 'inherit' },
    // A delivery receipt open for printing (data-print-receipt) prints alone, on white.
    '@media print': {
      'body:has([data-print-receipt]) *': { visibility: 'hidden' },
      // As specific as the rule above, and after it.
      'body:has([data-print-receipt]) [data-print-receipt], body:has([data-print-receipt]) [data-print-receipt] *':
        { visibility: 'visible' },
      '[data-print-receipt]': {
        bg: 'white',
        color: 'black',
        left: '0',
        position: 'fixed',
        top: '0',
        w: 'full',
      },
    },
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': {
        animationDuration: '0.01ms !important',
        transitionDuration: '0.01ms !important',
      },
    },
  },
  theme: {
    extend: {
      tokens,
      semanticTokens,
      keyframes: {
        fadeIn: { from: { opacity: 0 }, to: { opacity: 1 } },
        scaleIn: {
          from: { opacity: 0, transform: 'scale(0.96)' },
          to: { opacity: 1, transform: 'scale(1)' },
        },
        slideInLeft: {
          from: { transform: 'translateX(-100%)' },
          to: { transform: 'translateX(0)' },
        },
        slideDown: {
          from: { opacity: 0, transform: 'translateY(-6px)' },
          to: { opacity: 1, transform: 'translateY(0)' },
        },
      },
      recipes: {
        badge: badgeRecipe,
        button: buttonRecipe,
        input: inputRecipe,
        skeleton: skeletonRecipe,
      },
      slotRecipes: {
        checkbox: checkboxRecipe,
        dialog: dialogRecipe,
        menu: menuRecipe,
        select: selectRecipe,
        slider: sliderRecipe,
        switchRecipe: switchRecipe,
        tabs: tabsRecipe,
        toast: toastRecipe,
        tooltip: tooltipRecipe,
      },
    },
  },
})
