import { cx } from 'styled-system/css'
import { skeleton } from 'styled-system/recipes'

/** A pulsing placeholder block; size it with a class. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cx(skeleton(), className)} />
}
