import { useSyncExternalStore } from 'react'

const lists = new Map<string, MediaQueryList>()
const listFor = (query: string) => {
  let list = lists.get(query)
  if (!list) lists.set(query, (list = window.matchMedia(query)))
  return list
}

/**
 * Whether a media query matches, kept current as the window changes. A server render has no
 * screen: it gets `serverValue`.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = listFor(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => listFor(query).matches,
    () => serverValue,
  )
}
