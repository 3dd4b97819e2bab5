import { lazy, Suspense, useEffect, useId, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { sanitizeDescription } from '../description-html'
import { card, fieldError, fieldLabel, muted } from './admin-styles'

// TipTap is large: it loads when a product form opens, not with the dashboard. Its preview comes
// with it.
const RichTextEditor = lazy(() => import('./rich-text-editor'))

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

type Props = {
  value: string
  onValueChange: (html: string) => void
  error?: string
}

/**
 * A product's description, edited as formatted text (issue 33, docs/decisions/060-an-admin-that-explains-itself.md) with a preview as
 * the product page shows it.
 */
export function DescriptionField({ value, onValueChange, error }: Props) {
  const id = useId()
  const labelId = `${id}-label`
  const errorId = `${id}-error`
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <span id={labelId} className={fieldLabel}>
        Description
      </span>
      <Suspense fallback={<p className={muted}>Loading the editor…</p>}>
        <RichTextEditor
          labelId={labelId}
          describedBy={error ? errorId : undefined}
          invalid={Boolean(error)}
          contentClassName={richText}
          value={value}
          onValueChange={onValueChange}
        />
      </Suspense>
      {error && (
        <p id={errorId} className={fieldError}>
          {error}
        </p>
      )}
      <Preview html={value} />
    </div>
  )
}

/**
 * The description as the product page shows it: sanitized as saving stores it (DOMPurify's HTML
 * profile, what the page uses without the Sanitizer API), in the same type styles.
 */
function Preview({ html }: { html: string }) {
  const [clean, setClean] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    void sanitizeDescription(html).then((sanitized) => current && setClean(sanitized))
    return () => {
      current = false
    }
  }, [html])
  return (
    <section aria-label="Description preview" className={cx(card, css({ p: '3' }))}>
      <p className={cx(muted, css({ fontWeight: 'semibold' }))}>
        Preview, as the product page shows it
      </p>
      {html && clean !== null ? (
        <div className={richText} dangerouslySetInnerHTML={{ __html: clean }} />
      ) : (
        <p className={muted}>{html ? 'Preparing the preview…' : 'No description yet.'}</p>
      )}
    </section>
  )
}
