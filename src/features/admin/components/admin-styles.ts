/** Class names shared by the back office's components (semantic tokens only). */
import { css } from 'styled-system/css'

export const card = css({
  bg: 'bg.surface',
  borderColor: 'border.default',
  borderRadius: 'lg',
  borderWidth: '1px',
  boxShadow: 'card',
})

export const fieldLabel = css({ display: 'block', fontSize: 'sm', fontWeight: 'medium', mb: '1' })
export const fieldError = css({ color: 'danger.fg', fontSize: 'xs', mt: '1' })
export const muted = css({ color: 'fg.muted', fontSize: 'sm' })
export const errorBox = css({
  bg: 'danger.subtle',
  borderColor: 'danger.solid',
  borderRadius: 'md',
  borderWidth: '1px',
  color: 'danger.fg',
  fontSize: 'sm',
  px: '3',
  py: '2',
})
export const iconButton = css({
  alignItems: 'center',
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  display: 'inline-flex',
  h: '8',
  justifyContent: 'center',
  w: '8',
  _hover: { bg: 'bg.muted', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
  _disabled: { cursor: 'not-allowed', opacity: 0.5 },
})
export const row = css({ alignItems: 'center', display: 'flex', gap: '2' })
export const grid2 = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
})
export const sectionTitle = css({ fontSize: 'md', fontWeight: 'semibold', mb: '2' })
export const table = css({
  borderCollapse: 'collapse',
  fontSize: 'sm',
  w: 'full',
  '& th': {
    color: 'fg.muted',
    fontSize: 'xs',
    fontWeight: 'semibold',
    letterSpacing: 'wide',
    px: '3',
    py: '2',
    textAlign: 'left',
    textTransform: 'uppercase',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  },
  '& td': {
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    px: '3',
    py: '2',
    verticalAlign: 'middle',
  },
})
