import { defineTokens } from '@pandacss/dev'

// Raw palette. Components never use these directly: they go through semantic-tokens.ts, which
// pairs them so that text reads at 4.5:1 or more and controls stand out at 3:1 (WCAG 2.2 AA;
// docs/decisions/036-contrast-at-the-token-level.md). The contrast of each pair is checked in semantic-tokens.test.ts.
export const tokens = defineTokens({
  colors: {
    leaf: {
      50: { value: '#f0f9f3' },
      100: { value: '#dcf1e3' },
      200: { value: '#bbe3c9' },
      300: { value: '#8dcea6' },
      400: { value: '#5ab27f' },
      500: { value: '#379561' },
      600: { value: '#26784d' },
      700: { value: '#1f6040' },
      800: { value: '#1b4d35' },
      900: { value: '#14532d' },
      950: { value: '#0a2918' },
    },
    smoke: {
      50: { value: '#faf7f2' },
      100: { value: '#f2eee6' },
      200: { value: '#e4ded2' },
      300: { value: '#cdc5b6' },
      400: { value: '#a39a8a' },
      // Borders of controls: 3:1 on light surfaces and on dark ones.
      450: { value: '#8a8173' },
      // Quiet text on light surfaces (was #7d7466, 3.98:1 on smoke.100).
      500: { value: '#6b6357' },
      600: { value: '#5f574b' },
      700: { value: '#48423a' },
      800: { value: '#2e2a25' },
      900: { value: '#1d1a17' },
      950: { value: '#12100e' },
    },
    // The deal orange. 500 is the brand's own (2.92:1 under white text: art and large shapes
    // only); 700 carries white text (5.13:1), 800 is orange text on light surfaces (6.55:1 on
    // white), 400 on dark ones, 950 a dark badge behind 400.
    ember: {
      100: { value: '#fdecd8' },
      400: { value: '#f59e42' },
      500: { value: '#e8791c' },
      600: { value: '#c45e0f' },
      700: { value: '#b4500c' },
      800: { value: '#9a4409' },
      950: { value: '#3d2410' },
    },
    rose: {
      100: { value: '#fde2e2' },
      500: { value: '#dc3b3b' },
      600: { value: '#b92a2a' },
    },
    white: { value: '#ffffff' },
  },
  fonts: {
    body: {
      value: "'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    },
    heading: { value: "'Fraunces', ui-serif, Georgia, 'Times New Roman', serif" },
  },
  radii: {
    sm: { value: '6px' },
    md: { value: '10px' },
    lg: { value: '16px' },
    full: { value: '9999px' },
  },
  // Stacking order: page content < sticky header < dropdowns < overlays and modals < toasts.
  zIndex: {
    base: { value: 0 },
    docked: { value: 10 },
    sticky: { value: 1100 },
    dropdown: { value: 1200 },
    overlay: { value: 1300 },
    modal: { value: 1400 },
    popover: { value: 1500 },
    skipLink: { value: 1600 },
    toast: { value: 1700 },
    tooltip: { value: 1800 },
  },
  durations: {
    fast: { value: '120ms' },
    normal: { value: '200ms' },
  },
})
