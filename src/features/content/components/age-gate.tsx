import { lazy, Suspense, useState, type ReactNode } from 'react'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { serverRender } from '../../../lib/server-render'
import { gateAnswer } from '../../../lib/visitor-kind'

// Only a first visit shows the gate: its screen loads then, not with every page (the storefront's
// JavaScript budget, docs/decisions/051-california-taxes-and-daily-limits.md). The splash covers the moment it takes.
const AgeGateScreen = lazy(importWhenReachable(() => import('./age-gate-screen')))

/**
 * DESIGN.md §9: California law keeps the storefront to adults 21 and older, and to medical
 * patients 18 and older with a physician's recommendation (docs/decisions/051-california-taxes-and-daily-limits.md). Asks "Are you 21 or
 * older?" before any storefront screen, with a second way in for patients, and remembers the
 * answer on this device (checkout starts from it: adult use or medical); anyone else gets a
 * polite refusal (not remembered, so a mistaken tap can be undone).
 */
export function AgeGate({ children }: { children: ReactNode }) {
  const [verified, setVerified] = useState(() => serverRender() || gateAnswer() !== null)
  if (verified) return children
  return (
    <Suspense fallback={null}>
      <AgeGateScreen onEnter={() => setVerified(true)} />
    </Suspense>
  )
}
