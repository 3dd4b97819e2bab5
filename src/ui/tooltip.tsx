import {
  Suspense,
  cloneElement,
  lazy,
  useId,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react'
import { importWhenReachable } from '../lib/import-when-reachable'
import type { TooltipApi, TriggerAttributes, TriggerIntent } from './ark-tooltip'

// A tooltip only matters once a pointer rests on its trigger or a keyboard focuses it, so its Ark
// UI machinery (zag's tooltip, floating-ui) is fetched then instead of with the page. The trigger
// is rendered at once, always in the same place in the tree, so it keeps its focus when the
// machine arrives; the hover or focus that fetched it is handed over (ark-tooltip.tsx).
let loaded = false
const loadTooltip = importWhenReachable(() => import('./ark-tooltip'))
const TooltipPopup = lazy(() =>
  loadTooltip().then((module) => {
    loaded = true
    return { default: module.TooltipPopup }
  }),
)

/** The trigger events the tooltip machine listens to. */
const FORWARDED = [
  'onClick',
  'onFocus',
  'onBlur',
  'onPointerDown',
  'onPointerMove',
  'onPointerOver',
  'onPointerLeave',
  'onPointerCancel',
] as const

type Handler = (event: SyntheticEvent<HTMLElement>) => void
type TriggerProps = { id?: string } & Partial<
  Record<(typeof FORWARDED)[number] | 'onPointerEnter', Handler>
>

/**
 * A short label for an icon-only control. SPEC.md §9: tooltips open after 700 ms with a 300 ms
 * skip-delay. `children` is the trigger, one element that takes DOM event props.
 */
export function Tooltip({
  label,
  children,
}: {
  label: ReactNode
  children: ReactElement<TriggerProps>
}) {
  const [wanted, setWanted] = useState(loaded)
  const [attributes, setAttributes] = useState<TriggerAttributes>({})
  const api = useRef<TooltipApi | null>(null)
  const intent = useRef<TriggerIntent>({ hoverSince: null, element: null })
  const fallbackId = useId()
  const own = children.props
  const triggerId = own.id ?? `tooltip-trigger-${fallbackId}`

  const handlers: TriggerProps = {}
  for (const name of FORWARDED) {
    handlers[name] = (event) => {
      own[name]?.(event)
      const machineHandler = api.current?.getTriggerProps()[name] as Handler | undefined
      machineHandler?.(event)
    }
  }
  handlers.onPointerEnter = (event) => {
    own.onPointerEnter?.(event)
    if ((event.nativeEvent as PointerEvent).pointerType === 'touch') return
    intent.current = { hoverSince: performance.now(), element: event.currentTarget }
    setWanted(true)
  }
  const forwardLeave = handlers.onPointerLeave!
  handlers.onPointerLeave = (event) => {
    intent.current.hoverSince = null
    forwardLeave(event)
  }
  const forwardFocus = handlers.onFocus!
  handlers.onFocus = (event) => {
    intent.current.element = event.currentTarget
    setWanted(true)
    forwardFocus(event)
  }

  return (
    <>
      {cloneElement(children, { ...attributes, id: triggerId, ...handlers })}
      {wanted && (
        <Suspense fallback={null}>
          <TooltipPopup
            label={label}
            triggerId={triggerId}
            intent={intent}
            api={api}
            onAttributes={setAttributes}
          />
        </Suspense>
      )}
    </>
  )
}
