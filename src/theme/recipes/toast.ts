import { toastAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

// SPEC.md §9: toasts 356 px wide, bottom-right, stacked with a 14 px gap.
export const toastRecipe = defineSlotRecipe({
  className: 'toast',
  jsx: ['Toaster', /Toast/],
  slots: toastAnatomy.keys(),
  base: {
    closeTrigger: {
      alignItems: 'center',
      color: 'fg.muted',
      cursor: 'pointer',
      display: 'inline-flex',
      // 24 × 24 around the 14 px ×: a finger's minimum (WCAG 2.5.8), where the × was.
      h: '6',
      justifyContent: 'center',
      position: 'absolute',
      right: '1',
      top: '1',
      w: '6',
      _hover: { color: 'fg.default' },
    },
    description: { color: 'fg.muted', fontSize: 'sm' },
    root: {
      bg: 'bg.surface',
      borderColor: 'border.default',
      borderLeftColor: 'accent.solid',
      borderLeftWidth: '4px',
      borderRadius: 'md',
      borderWidth: '1px',
      boxShadow: 'raised',
      height: 'var(--height)',
      maxW: 'calc(100vw - 2rem)',
      opacity: 'var(--opacity)',
      overflowWrap: 'anywhere',
      p: '4',
      pr: '10',
      position: 'relative',
      scale: 'var(--scale)',
      transitionDuration: 'normal',
      transitionProperty: 'translate, scale, opacity, height',
      translate: 'var(--x) var(--y)',
      w: '356px',
      willChange: 'translate, opacity, scale',
      zIndex: 'var(--z-index)',
      '&[data-type=error]': { borderLeftColor: 'danger.solid' },
    },
    title: { color: 'fg.default', fontSize: 'sm', fontWeight: 'bold' },
  },
})
