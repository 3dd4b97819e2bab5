import { defineSemanticTokens } from '@pandacss/dev'

// The only colours components may name. Light is the storefront default; `.dark` (and the admin,
// dark unless its toggle says light) swaps every value.
//
// Contrast (WCAG 2.2 AA, docs/decisions/036-contrast-at-the-token-level.md): every fg.* and *.fg reads at 4.5:1 or more on
// every bg.* of its theme; fg.onAccent reads at 4.5:1 on accent.solid, accent.solidHover,
// deal.solid, deal.solidHover and danger.solid; border.strong (the edge of inputs, selects,
// checkboxes, switches, steppers) and accent.fg (focus rings) stand out at 3:1 from every bg.*.
// semantic-tokens.test.ts checks all of these pairs.
export const semanticTokens = defineSemanticTokens({
  colors: {
    bg: {
      canvas: { value: { base: '{colors.smoke.50}', _dark: '{colors.smoke.950}' } },
      surface: { value: { base: '{colors.white}', _dark: '{colors.smoke.900}' } },
      muted: { value: { base: '{colors.smoke.100}', _dark: '{colors.smoke.800}' } },
      subtle: { value: { base: '{colors.leaf.50}', _dark: '{colors.leaf.950}' } },
      overlay: { value: { base: 'rgba(18,16,14,.55)', _dark: 'rgba(0,0,0,.7)' } },
      inverse: { value: { base: '{colors.leaf.950}', _dark: '{colors.smoke.900}' } },
    },
    fg: {
      default: { value: { base: '{colors.smoke.900}', _dark: '{colors.smoke.50}' } },
      muted: { value: { base: '{colors.smoke.600}', _dark: '{colors.smoke.300}' } },
      subtle: { value: { base: '{colors.smoke.500}', _dark: '{colors.smoke.400}' } },
      onAccent: { value: { base: '{colors.white}', _dark: '{colors.white}' } },
      onInverse: { value: { base: '{colors.leaf.50}', _dark: '{colors.smoke.100}' } },
      onInverseMuted: { value: { base: '{colors.leaf.300}', _dark: '{colors.smoke.400}' } },
    },
    border: {
      default: { value: { base: '{colors.smoke.200}', _dark: '{colors.smoke.700}' } },
      strong: { value: { base: '{colors.smoke.450}', _dark: '{colors.smoke.450}' } },
    },
    accent: {
      solid: { value: { base: '{colors.leaf.900}', _dark: '{colors.leaf.600}' } },
      solidHover: { value: { base: '{colors.leaf.800}', _dark: '{colors.leaf.700}' } },
      fg: { value: { base: '{colors.leaf.700}', _dark: '{colors.leaf.300}' } },
      subtle: { value: { base: '{colors.leaf.100}', _dark: '{colors.leaf.900}' } },
    },
    deal: {
      solid: { value: { base: '{colors.ember.700}', _dark: '{colors.ember.700}' } },
      solidHover: { value: { base: '{colors.ember.800}', _dark: '{colors.ember.800}' } },
      fg: { value: { base: '{colors.ember.800}', _dark: '{colors.ember.400}' } },
      subtle: { value: { base: '{colors.ember.100}', _dark: '{colors.ember.950}' } },
    },
    danger: {
      solid: { value: { base: '{colors.rose.600}', _dark: '{colors.rose.600}' } },
      fg: { value: { base: '{colors.rose.600}', _dark: '{colors.rose.100}' } },
      subtle: { value: { base: '{colors.rose.100}', _dark: '{colors.rose.600}' } },
    },
  },
  shadows: {
    card: {
      value: {
        base: '0 1px 2px rgba(29,26,23,.06), 0 4px 16px rgba(29,26,23,.06)',
        _dark: '0 1px 2px rgba(0,0,0,.5)',
      },
    },
    raised: {
      value: { base: '0 8px 30px rgba(29,26,23,.12)', _dark: '0 8px 30px rgba(0,0,0,.6)' },
    },
  },
})
