import { createRouter } from '@tanstack/react-router'
import { routeTree } from './route-tree.gen'

// NOTE: no router context: screens reach the data layer through <DataProvider>, so the router can
// exist (and fetch the route's code) before the device database has opened.
export function createHumoRouter() {
  return createRouter({
    routeTree,
    defaultPreload: 'intent',
    scrollRestoration: true,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createHumoRouter>
  }
}
