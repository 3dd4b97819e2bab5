import { lazy, Suspense, useId } from 'react'
import { css, cx } from 'styled-system/css'
import { SafeHtml } from '../../../ui/safe-html'
import { card, fieldError, fieldLabel, muted } from './admin-styles'
import { richText } from './rich-text-styles'

// TipTap is large: it loads when a product form opens, not with the dashboard.
const RichTextEditor = lazy(() => import('./rich-text-editor'))

type Props = {
  value: string
  onValueChange: (html: string) => void
  error?: string
}

/**
 * A product's description, edited as formatted text (issue 33, decision 060) with a preview as
 * the product page shows it: the same sanitizer (src/ui/safe-html.tsx) on the same HTML.
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
          value={value}
          onValueChange={onValueChange}
        />
      </Suspense>
      {error && (
        <p id={errorId} className={fieldError}>
          {error}
        </p>
      )}
      <section aria-label="Description preview" className={cx(card, css({ p: '3' }))}>
        <h4 className={cx(muted, css({ fontWeight: 'semibold' }))}>
          Preview, as the product page shows it
        </h4>
        {value ? (
          <SafeHtml className={richText} html={value} />
        ) : (
          <p className={muted}>No description yet.</p>
        )}
      </section>
    </div>
  )
}
