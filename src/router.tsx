import {
  createRouter,
  parseSearchWith,
  stringifySearchWith,
  type RouterHistory,
} from '@tanstack/react-router'
import { routeTree } from './route-tree.gen'

// NOTE: no router context: screens reach the data layer through <DataProvider>, so the router can
// exist (and fetch the route's code) before the device database has opened.
/**
 * Search values are read as JSON (TanStack's default) only when the JSON says the same thing
 * written back: an order number "35E98284" is not 35×10^98284 (Infinity), nor "00123456" the
 * number 123456. Such a value stays the text it is.
 */
export function parseSearchValue(value: string): unknown {
  const parsed: unknown = JSON.parse(value)
  return typeof parsed === 'number' && String(parsed) !== value ? value : parsed
}

/** `history`: the server render's memory history (src/entry-server.tsx); the browser's by default. */
export function createHumoRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    defaultPreload: 'intent',
    parseSearch: parseSearchWith(parseSearchValue),
    stringifySearch: stringifySearchWith(JSON.stringify, parseSearchValue),
    // A server render has no scroll to restore (and must not carry the router's script for it).
    scrollRestoration: !history,
    ...(history ? { history } : {}),
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createHumoRouter>
  }
}
