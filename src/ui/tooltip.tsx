import { Portal } from '@ark-ui/react/portal'
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip'
import type { ReactElement, ReactNode } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { tooltip } from 'styled-system/recipes'

const { withRootProvider, withContext } = createStyleContext(tooltip)
const Root = withRootProvider(ArkTooltip.Root)
const Positioner = withContext(ArkTooltip.Positioner, 'positioner')
const Content = withContext(ArkTooltip.Content, 'content')

/**
 * SPEC.md §9: tooltips open after 700 ms. (Zag's tooltip opens the next one at once while one was
 * just shown, which stands in for the 300 ms skip-delay.)
 */
export function Tooltip({ label, children }: { label: ReactNode; children: ReactElement }) {
  return (
    <Root openDelay={700} closeDelay={0}>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <Positioner>
          <Content>{label}</Content>
        </Positioner>
      </Portal>
    </Root>
  )
}
