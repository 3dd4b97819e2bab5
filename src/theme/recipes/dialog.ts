import { dialogAnatomy } from '@ark-ui/react/anatomy'
import { defineSlotRecipe } from '@pandacss/dev'

// One recipe for modals and side drawers: `placement` picks where the content sits.
export const dialogRecipe = defineSlotRecipe({
  className: 'dialog',
  jsx: ['Dialog', /Dialog/],
  slots: dialogAnatomy.keys(),
  base: {
    backdrop: {
      bg: 'bg.overlay',
      inset: '0',
      position: 'fixed',
      zIndex: 'overlay',
      _open: { animation: 'fadeIn 0.2s ease-out' },
    },
    closeTrigger: {
      alignItems: 'center',
      borderRadius: 'full',
      color: 'fg.muted',
      cursor: 'pointer',
      display: 'inline-flex',
      h: '9',
      justifyContent: 'center',
      position: 'absolute',
      right: '3',
      top: '3',
      w: '9',
      _hover: { bg: 'bg.muted', color: 'fg.default' },
      _touch: { h: '11', w: '11', right: '2', top: '2' },
      _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
    },
    content: {
      bg: 'bg.surface',
      boxShadow: 'raised',
      outline: 'none',
      overflowY: 'auto',
      position: 'relative',
    },
    description: { color: 'fg.muted', fontSize: 'sm' },
    positioner: { display: 'flex', inset: '0', position: 'fixed', zIndex: 'modal' },
    title: { fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold' },
  },
  defaultVariants: { placement: 'center' },
  variants: {
    placement: {
      center: {
        content: {
          borderRadius: 'lg',
          maxH: 'calc(100dvh - 2rem)',
          maxW: 'md',
          p: '6',
          w: 'full',
          _open: { animation: 'scaleIn 0.2s ease-out' },
        },
        positioner: { alignItems: 'center', justifyContent: 'center', p: '4' },
      },
      start: {
        content: {
          h: '100dvh',
          maxW: '85vw',
          p: '5',
          w: '80',
          _open: { animation: 'slideInLeft 0.22s ease-out' },
        },
        positioner: { alignItems: 'stretch', justifyContent: 'flex-start' },
      },
    },
  },
})
