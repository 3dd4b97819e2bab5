import {
  createContext,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react'
import { tabs } from 'styled-system/recipes'
import type * as Ark from './ark-tabs'
import { lazyModule, useLazyPart } from './lazy-part'

// Tabs are on screen at once (the product page's Description) but their keyboard handling only
// matters once used: this static copy renders them with Ark UI's markup and classes, switches on
// a click, and Ark UI's tabs are fetched on the first hover, press or focus of the tab list (see
// lazy-part.ts). The panels are remounted when Ark UI takes over, so these tabs are for panels
// without state of their own; others use `Tabs` from ark-tabs.tsx, loaded with the page.
const arkPart = lazyModule<typeof Ark>(() => import('./ark-tabs'))

const classes = tabs()

type StaticTabs = {
  id: string
  /** For the tab list: the first hover, press or focus there fetches Ark UI. */
  intentHandlers: ReturnType<typeof useLazyPart>['handlers']
  value: string | undefined
  visited: Set<string>
  lazyMount: boolean
  select: (value: string) => void
}
type Mode = { ark: typeof Ark } | { static: StaticTabs }
const ModeContext = createContext<Mode | null>(null)

function useMode(): Mode {
  const mode = useContext(ModeContext)
  if (!mode) throw new Error('Tabs parts belong inside Tabs.Root')
  return mode
}

const common = (part: string) => ({
  'data-scope': 'tabs',
  'data-part': part,
  'data-orientation': 'horizontal',
  dir: 'ltr' as const,
})

type RootProps = {
  value?: string
  defaultValue?: string
  onValueChange?: (details: { value: string }) => void
  /** Render a panel only once it has been selected. */
  lazyMount?: boolean
  className?: string
  children: ReactNode
}

function Root({
  value,
  defaultValue,
  onValueChange,
  lazyMount = false,
  className,
  children,
}: RootProps) {
  const { module: ark, intent, handlers } = useLazyPart(arkPart)
  const [own, setOwn] = useState(defaultValue)
  const current = value ?? own
  const [visited] = useState(() => new Set<string>())
  if (current !== undefined) visited.add(current)
  const id = `tabs:${useId()}`
  if (ark) {
    return (
      <ModeContext.Provider value={{ ark }}>
        <ark.Root
          {...(value === undefined ? { defaultValue: current } : { value })}
          onValueChange={onValueChange}
          lazyMount={lazyMount}
          className={className}
          intent={intent.current}
        >
          {children}
        </ark.Root>
      </ModeContext.Provider>
    )
  }
  const select = (next: string) => {
    if (value === undefined) setOwn(next)
    onValueChange?.({ value: next })
  }
  return (
    <ModeContext.Provider
      value={{
        static: { id, intentHandlers: handlers, value: current, visited, lazyMount, select },
      }}
    >
      <div
        {...common('root')}
        id={id}
        className={[classes.root, className].filter(Boolean).join(' ')}
      >
        {children}
      </div>
    </ModeContext.Provider>
  )
}

function List({ children }: { children: ReactNode }) {
  const mode = useMode()
  if ('ark' in mode) return <mode.ark.parts.List>{children}</mode.ark.parts.List>
  const { id, intentHandlers } = mode.static
  return (
    <div
      {...common('list')}
      {...intentHandlers}
      id={`${id}:list`}
      role="tablist"
      aria-orientation="horizontal"
      className={classes.list}
    >
      {children}
    </div>
  )
}

function Trigger({ value, children }: { value: string; children: ReactNode }) {
  const mode = useMode()
  if ('ark' in mode)
    return <mode.ark.parts.Trigger value={value}>{children}</mode.ark.parts.Trigger>
  const { id, value: selected, select } = mode.static
  const on = value === selected
  return (
    <button
      {...common('trigger')}
      role="tab"
      type="button"
      data-value={value}
      aria-selected={on}
      data-selected={on ? '' : undefined}
      aria-controls={`${id}:content-${value}`}
      data-ownedby={`${id}:list`}
      id={`${id}:trigger-${value}`}
      tabIndex={on ? 0 : -1}
      className={classes.trigger}
      onClick={() => select(value)}
    >
      {children}
    </button>
  )
}

function Content({ value, children }: { value: string; children: ReactNode }) {
  const mode = useMode()
  if ('ark' in mode)
    return <mode.ark.parts.Content value={value}>{children}</mode.ark.parts.Content>
  const { id, value: selected, visited, lazyMount } = mode.static
  const on = value === selected
  return (
    <div
      {...common('content')}
      id={`${id}:content-${value}`}
      tabIndex={0}
      aria-labelledby={`${id}:trigger-${value}`}
      role="tabpanel"
      data-ownedby={`${id}:list`}
      data-selected={on ? '' : undefined}
      hidden={!on}
      data-state={on ? 'open' : 'closed'}
      className={classes.content}
    >
      {!lazyMount || visited.has(value) ? children : null}
    </div>
  )
}

/** The line under the selected trigger, placed as Ark UI places it (its offset box in the list). */
function Indicator() {
  const mode = useMode()
  const ref = useRef<HTMLDivElement>(null)
  const selected = 'static' in mode ? mode.static.value : undefined
  const id = 'static' in mode ? mode.static.id : ''
  useLayoutEffect(() => {
    const indicator = ref.current
    const list = indicator?.parentElement
    if (!indicator || !list || selected === undefined) return
    const place = () => {
      const trigger = document.getElementById(`${id}:trigger-${selected}`)
      if (!trigger) return
      indicator.style.setProperty('--left', `${trigger.offsetLeft}px`)
      indicator.style.setProperty('--top', `${trigger.offsetTop}px`)
      indicator.style.setProperty('--width', `${trigger.offsetWidth}px`)
      indicator.style.setProperty('--height', `${trigger.offsetHeight}px`)
    }
    place()
    const observer = new ResizeObserver(place)
    observer.observe(list)
    return () => observer.disconnect()
  }, [id, selected])
  if ('ark' in mode) return <mode.ark.parts.Indicator />
  const style = {
    '--transition-property': 'left, right, top, bottom, width, height',
    position: 'absolute',
    willChange: 'auto',
    transitionProperty: 'none',
    transitionDuration: '0ms',
    transitionTimingFunction: 'var(--transition-timing-function)',
    left: 'var(--left)',
  } as CSSProperties
  return (
    <div
      ref={ref}
      {...common('indicator')}
      id={`${id}:indicator`}
      className={classes.indicator}
      style={style}
    />
  )
}

/** Tabs (Ark UI): arrow keys move between triggers; compound parts as in Park UI. */
export const Tabs = { Root, List, Trigger, Content, Indicator }
