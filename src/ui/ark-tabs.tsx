import { Tabs as ArkTabs } from '@ark-ui/react/tabs'
import { useEffect, useRef, type ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { tabs } from 'styled-system/recipes'
import { restoreFocus, type Intent } from './lazy-part'

const { withProvider, withContext } = createStyleContext(tabs)

const StyledRoot = withProvider(ArkTabs.Root, 'root')

/** The Ark UI parts behind `Tabs` (src/ui/tabs.tsx), styled by the tabs recipe. */
export const parts = {
  List: withContext(ArkTabs.List, 'list'),
  Trigger: withContext(ArkTabs.Trigger, 'trigger'),
  Content: withContext(ArkTabs.Content, 'content'),
  Indicator: withContext(ArkTabs.Indicator, 'indicator'),
}

export type ArkTabsRootProps = {
  value?: string
  defaultValue?: string
  onValueChange?: (details: { value: string }) => void
  lazyMount?: boolean
  className?: string
  children: ReactNode
  intent: Intent
}

/** Ark UI's tabs: arrow keys move between triggers, Home and End jump. */
export function Root({ intent, ...props }: ArkTabsRootProps) {
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => restoreFocus(root.current, intent), [intent])
  return <StyledRoot ref={root} {...props} />
}
