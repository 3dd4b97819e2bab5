import { Portal } from '@ark-ui/react/portal'
import { Tooltip as ArkTooltip, useTooltip } from '@ark-ui/react/tooltip'
import { useEffect, useLayoutEffect, type ReactNode, type RefObject } from 'react'
import { createStyleContext } from 'styled-system/jsx'
import { tooltip } from 'styled-system/recipes'

const { withRootProvider, withContext } = createStyleContext(tooltip)
const RootProvider = withRootProvider(ArkTooltip.RootProvider)
const Positioner = withContext(ArkTooltip.Positioner, 'positioner')
const Content = withContext(ArkTooltip.Content, 'content')

/** SPEC.md §9: tooltips open after 700 ms. */
export const OPEN_DELAY_MS = 700

export type TooltipApi = ReturnType<typeof useTooltip>
/** The trigger's ARIA and data attributes (its event handlers are forwarded, not copied). */
export type TriggerAttributes = Record<string, string | undefined>
/** What the trigger saw before this module arrived. */
export type TriggerIntent = { hoverSince: number | null; element: HTMLElement | null }

export type TooltipPopupProps = {
  label: ReactNode
  triggerId: string
  intent: RefObject<TriggerIntent>
  api: RefObject<TooltipApi | null>
  onAttributes: (attributes: TriggerAttributes) => void
}

/**
 * The Ark UI tooltip behind `Tooltip` (src/ui/tooltip.tsx): the machine, its positioning
 * (floating-ui) and the content. The trigger stays the caller's element, which forwards its
 * events here. (Zag's tooltip opens the next one at once while one was just shown, which stands
 * in for the 300 ms skip-delay.)
 */
export function TooltipPopup({ label, triggerId, intent, api, onAttributes }: TooltipPopupProps) {
  const machine = useTooltip({
    openDelay: OPEN_DELAY_MS,
    closeDelay: 0,
    ids: { trigger: triggerId },
  })
  useLayoutEffect(() => {
    api.current = machine
  })
  const attributes: TriggerAttributes = {}
  for (const [name, value] of Object.entries(machine.getTriggerProps())) {
    if (typeof value === 'string') attributes[name] = value
  }
  const key = JSON.stringify(attributes)
  useEffect(() => onAttributes(JSON.parse(key) as TriggerAttributes), [key, onAttributes])

  // The hover or keyboard focus that fetched this module happened before the machine existed:
  // honour it as the machine would have (open 700 ms after the pointer came, or at once on focus).
  useEffect(() => {
    const { hoverSince, element } = intent.current
    if (element && element === document.activeElement && element.matches(':focus-visible')) {
      api.current?.setOpen(true)
      return
    }
    if (hoverSince === null) return
    const timer = setTimeout(
      () => {
        if (intent.current.hoverSince === hoverSince) api.current?.setOpen(true)
      },
      Math.max(0, hoverSince + OPEN_DELAY_MS - performance.now()),
    )
    return () => clearTimeout(timer)
  }, [api, intent])

  return (
    <RootProvider value={machine}>
      <Portal>
        <Positioner>
          <Content>{label}</Content>
        </Positioner>
      </Portal>
    </RootProvider>
  )
}
