import {
  useCallback,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react'
import { importWhenReachable } from '../lib/import-when-reachable'

/**
 * Loading Ark UI parts on first use. A control that is on screen at once but only matters when
 * touched (a filter slider, a sort select) is drawn first by a static copy with the same recipe
 * classes and attributes; its Ark UI machinery is fetched on the first hover, press or focus and
 * then takes the copy's place. What the shopper did before it arrived (the focused part, a press
 * or a click) is handed over so the swap is invisible.
 */

/** A module fetched on first use, shared by every control that needs it. */
export type LazyModule<M> = {
  /** Fetches it (once; later calls get the same module). Never rejects: see importWhenReachable. */
  load: () => Promise<M>
  /** It, if it has arrived, so a control drawn later starts with the real thing. */
  loaded: () => M | undefined
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let module: M | undefined
  // Offline before the service worker holds it, the control stays a static copy until it comes.
  const load = importWhenReachable(() => importer().then((m) => (module = m)))
  return { load, loaded: () => module }
}

/** A press on the static copy, replayed on the real control once it is there. */
export type PressIntent = {
  /** The `data-part`s pressed, innermost first (`thumb`, `control`, `root`). */
  parts: string[]
  x: number
  y: number
  pointerId: number
  pointerType: string
  released: boolean
}

export type Intent = {
  /** `[data-part=…][data-index=…][data-value=…]` of the element that had focus. */
  focus: string | null
  press: PressIntent | null
  /** The `data-part`s clicked (a click also comes from Enter or Space on a button). */
  clicked: string[]
}

/** The `data-part`s from the target up to the control's root (`value-text`, `trigger`, …). */
function partsOf(target: EventTarget): string[] {
  const parts: string[] = []
  for (let at = target instanceof HTMLElement ? target : null; at; at = at.parentElement) {
    if (at.dataset.part) parts.push(at.dataset.part)
    if (at.dataset.part === 'root') break
  }
  return parts
}

function focusSelector(element: HTMLElement): string | null {
  const part = element.dataset.part
  if (!part) return null
  const { index, value } = element.dataset
  return (
    `[data-part="${part}"]` +
    (index === undefined ? '' : `[data-index="${index}"]`) +
    (value === undefined ? '' : `[data-value="${CSS.escape(value)}"]`)
  )
}

/**
 * The module once fetched (or at once when an earlier control fetched it), the intent recorded
 * meanwhile, and the handlers for the static copy's root element.
 */
export function useLazyPart<M>({ load, loaded }: LazyModule<M>) {
  const [module, setModule] = useState<M | undefined>(loaded)
  const intent = useRef<Intent>({ focus: null, press: null, clicked: [] })
  const want = useCallback(() => {
    void load().then(setModule)
  }, [load])
  const handlers = {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType !== 'touch') want()
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0) return
      const press: PressIntent = {
        parts: partsOf(event.target),
        x: event.clientX,
        y: event.clientY,
        pointerId: event.pointerId,
        pointerType: event.pointerType,
        released: false,
      }
      intent.current.press = press
      const release = () => {
        press.released = true
      }
      window.addEventListener('pointerup', release, { once: true })
      window.addEventListener('pointercancel', release, { once: true })
      want()
    },
    onClick: (event: MouseEvent<HTMLElement>) => {
      intent.current.clicked = partsOf(event.target)
      want()
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      intent.current.focus = focusSelector(event.target)
      want()
    },
  }
  return { module, intent, handlers }
}

/** Focuses the part that had focus in the static copy. */
export function restoreFocus(root: HTMLElement | null, intent: Intent) {
  if (!root || !intent.focus) return
  root.querySelector<HTMLElement>(intent.focus)?.focus()
}

/** Replays a press (and its release) on whatever of `root` is under it now. */
export function replayPress(root: HTMLElement | null, press: PressIntent | null) {
  if (!root || !press) return
  const target = root.ownerDocument.elementFromPoint(press.x, press.y)
  if (!target || !root.contains(target)) return
  const init: PointerEventInit = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: press.x,
    clientY: press.y,
    pointerId: press.pointerId,
    pointerType: press.pointerType,
    isPrimary: true,
    button: 0,
    buttons: 1,
  }
  target.dispatchEvent(new PointerEvent('pointerdown', init))
  if (!press.released) return
  // The release goes to the listeners the press made the control add, after it has rendered.
  const doc = root.ownerDocument
  requestAnimationFrame(() =>
    requestAnimationFrame(() =>
      doc.dispatchEvent(new PointerEvent('pointerup', { ...init, buttons: 0 })),
    ),
  )
}
