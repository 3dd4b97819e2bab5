import { css } from 'styled-system/css'

/** Formatted text as the product page sets it: the editor and its preview look the same. */
export const richText = css({
  fontSize: 'sm',
  lineHeight: 'relaxed',
  '& p': { my: '2' },
  '& h2': { fontSize: 'lg', fontWeight: 'bold', mt: '3', mb: '1' },
  '& h3': { fontSize: 'md', fontWeight: 'semibold', mt: '3', mb: '1' },
  '& ul': { listStyleType: 'disc', pl: '5', my: '2' },
  '& ol': { listStyleType: 'decimal', pl: '5', my: '2' },
  '& blockquote': { borderLeftWidth: '3px', borderColor: 'border.default', pl: '3', my: '2' },
  '& strong, & b': { fontWeight: 'bold' },
  '& em, & i': { fontStyle: 'italic' },
})
