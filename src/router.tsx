import { createRouter } from '@tanstack/react-router'
import type { HumoData } from './data/humo-data'
import { routeTree } from './route-tree.gen'

export type RouterContext = { data: HumoData }

export function createHumoRouter(data: HumoData) {
  return createRouter({
    routeTree,
    context: { data },
    defaultPreload: 'intent',
    scrollRestoration: true,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createHumoRouter>
  }
}
