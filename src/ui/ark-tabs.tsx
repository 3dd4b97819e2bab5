import { Tabs as ArkTabs } from '@ark-ui/react/tabs'
import { useEffect, useRef, type ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { tabs } from 'styled-system/recipes'
import { restoreFocus, type Intent } from './lazy-part'

const { withProvider, withContext } = createStyleContext(tabs)

const StyledRoot = withProvider(ArkTabs.Root, 'root')

/** Ark UI's tabs styled by the tabs recipe, parts as in Park UI. */
export const parts = {
  List: withContext(ArkTabs.List, 'list'),
  Trigger: withContext(ArkTabs.Trigger, 'trigger'),
  Content: withContext(ArkTabs.Content, 'content'),
  Indicator: withContext(ArkTabs.Indicator, 'indicator'),
}

/**
 * Tabs (Ark UI) loaded with the page, for panels that hold state of their own (the admin
 * dashboard's): `Tabs` of tabs.tsx remounts its panels when Ark UI takes over from its static copy.
 * Arrow keys move between triggers, Home and End jump.
 */
export const Tabs = { Root: StyledRoot, ...parts }

export type ArkTabsRootProps = {
  value?: string
  defaultValue?: string
  onValueChange?: (details: { value: string }) => void
  lazyMount?: boolean
  className?: string
  children: ReactNode
  intent: Intent
}

/** The root `Tabs` of tabs.tsx swaps in: refocuses the trigger focused in the static copy. */
export function Root({ intent, ...props }: ArkTabsRootProps) {
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => restoreFocus(root.current, intent), [intent])
  return <StyledRoot ref={root} {...props} />
}
