import { definePreset } from '@pandacss/dev'
import { tokens } from './tokens'
import { semanticTokens } from './semantic-tokens'
import { buttonRecipe } from './recipes/button'

export const humoPreset = definePreset({
  name: 'humo',
  conditions: { dark: '.dark &, [data-theme=dark] &' },
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg.default', fontFamily: 'body' },
    body: { minHeight: '100dvh', WebkitFontSmoothing: 'antialiased' },
    a: { color: 'inherit' },
  },
  theme: {
    extend: {
      tokens,
      semanticTokens,
      recipes: { button: buttonRecipe },
    },
  },
})
