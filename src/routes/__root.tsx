import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { RouterContext } from '../router'
import { NotFoundPage } from '../features/content/components/not-found-page'
import { SiteShell } from '../features/content/components/site-shell'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <SiteShell>
      <Outlet />
    </SiteShell>
  ),
  notFoundComponent: NotFoundPage,
})
