import { createRouter, type RouterHistory } from '@tanstack/react-router'
import { routeTree } from './route-tree.gen'

// NOTE: no router context: screens reach the data layer through <DataProvider>, so the router can
// exist (and fetch the route's code) before the device database has opened.
/** `history`: the server render's memory history (src/entry-server.tsx); the browser's by default. */
export function createHumoRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    defaultPreload: 'intent',
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
