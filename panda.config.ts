import { defineConfig } from '@pandacss/dev'
import { basePreset } from './src/theme/base-preset'
import { humoPreset } from './src/theme/preset'

export default defineConfig({
  preflight: true,
  // The presets below are the whole list: Panda's base preset is replaced by basePreset.
  eject: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/**/*.test.{ts,tsx}'],
  presets: [basePreset, '@pandacss/preset-panda', humoPreset],
  // Keyboard focus is visible on every control (WCAG 2.4.7, docs/decisions/037-keyboard-touch-and-announcements.md): one ring from one
  // semantic token, which components may restyle but never remove.
  theme: {
    extend: {
      semanticTokens: {
        colors: { focusRing: { value: '{colors.accent.fg}' } },
      },
    },
  },
  // Phones and touch screens (the staff tablet): main controls get 44 × 44 px targets (WCAG 2.5.5).
  conditions: { extend: { touch: '@media (max-width: 47.9975em), (pointer: coarse)' } },
  globalCss: {
    ':focus-visible': { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    // Sticky header (tablet up) and the phone's sticky Add to Cart bar never hide what has focus
    // (WCAG 2.4.11).
    html: { scrollPaddingTop: { md: '9rem' }, scrollPaddingBottom: { base: '6rem', md: '0' } },
    // The page's content is where skip links and page changes put focus: a landmark, not a control.
    '#main:focus-visible': { outline: 'none' },
    // Skip links (site-shell.tsx): hidden until focused. Styled here, not in the page's script.
    '[data-skip-links] a': {
      srOnly: true,
      _focus: {
        clip: 'auto',
        w: 'auto',
        h: 'auto',
        m: '0',
        overflow: 'visible',
        whiteSpace: 'normal',
        position: 'fixed',
        top: '2',
        left: '2',
        zIndex: 'skipLink',
        bg: 'bg.surface',
        color: 'fg.default',
        fontWeight: 'semibold',
        px: '4',
        py: '3',
        borderRadius: 'md',
        boxShadow: 'raised',
      },
    },
    // Parts of the storefront header (site-header.tsx): static styles kept out of the boot script,
    // which is at its size budget (docs/decisions/037-keyboard-touch-and-announcements.md).
    '[data-header-strip]': {
      maxW: '7xl',
      mx: 'auto',
      px: { base: '4', md: '8' },
      py: '1.5',
      display: 'flex',
      flexWrap: { base: 'wrap', sm: 'nowrap' },
      justifyContent: 'space-between',
      columnGap: '4',
      rowGap: '0.5',
    },
    '[data-header-row]': {
      maxW: '7xl',
      mx: 'auto',
      px: { base: '4', md: '8' },
      py: { base: '2.5', md: '3' },
      display: 'grid',
      gridTemplateColumns: { base: 'auto 1fr auto', md: 'auto minmax(0, 1fr) auto' },
      gridTemplateAreas: {
        base: '"menu logo cart" "search search search"',
        md: '"logo search actions"',
      },
      alignItems: 'center',
      columnGap: { base: '2', md: '6' },
      rowGap: '2.5',
    },
    '[data-desktop-nav]': {
      display: { base: 'none', md: 'block' },
      borderTopWidth: '1px',
      borderColor: 'border.default',
      '& > ul': { display: 'flex', gap: '1', maxW: '7xl', mx: 'auto', px: { md: '6', lg: '8' } },
      '& > ul > li': { position: 'relative', display: 'flex' },
    },
    '[data-phone-nav]': {
      display: { base: 'block', md: 'none' },
      overflowX: 'auto',
      scrollbarWidth: 'none',
      borderTopWidth: '1px',
      borderColor: 'border.default',
      '& > ul': { display: 'flex', gap: '2', px: '4', py: '2', w: 'max-content' },
    },
    '[data-nav-menu-button]': {
      display: 'grid',
      placeItems: 'center',
      minW: '6',
      pr: '2',
      cursor: 'pointer',
      color: 'fg.muted',
      _hover: { color: 'accent.fg' },
      _expanded: { color: 'accent.fg' },
    },
    '[data-nav-menu]': {
      display: 'none',
      position: 'absolute',
      top: '100%',
      left: '0',
      w: '72',
      bg: 'bg.surface',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.default',
      boxShadow: 'raised',
      p: '4',
      zIndex: 'dropdown',
      animation: 'slideDown 0.15s ease-out',
      '.group:hover > &, &[data-open]': { display: 'block' },
      '& > p:first-child': { fontFamily: 'heading', fontWeight: 'bold', fontSize: 'lg' },
      '& > p + p': { fontSize: 'sm', color: 'fg.muted', mt: '1', mb: '3' },
      '& > ul': { display: 'grid', gap: '0.5' },
      '& a': {
        display: 'block',
        px: '2',
        py: '1.5',
        mx: '-2',
        borderRadius: 'sm',
        fontSize: 'sm',
        textDecoration: 'none',
        _hover: { bg: 'bg.muted', color: 'accent.fg' },
        _focusVisible: { bg: 'bg.muted', outlineOffset: '0' },
      },
      '& li:last-child': { mt: '2' },
      '& li:last-child > a': { fontWeight: 'semibold', color: 'accent.fg' },
    },
    // The product page ends above its phone Add to Cart bar, not under it.
    'body:has([data-buy-bar])': { pb: { base: '20', md: '0' } },
  },
  jsxFramework: 'react',
  outdir: 'styled-system',
  importMap: 'styled-system',
})
