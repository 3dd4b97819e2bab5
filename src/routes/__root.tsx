import { Outlet, createRootRoute } from '@tanstack/react-router'
import { CartButton } from '../features/cart/components/cart-button'
import { AppErrorPage } from '../features/content/components/app-error-page'
import { NotFoundPage } from '../features/content/components/not-found-page'
import { SiteShell } from '../features/content/components/site-shell'
import { InstallButton } from '../features/pwa/components/install-button'
import { SyncBanner } from '../features/pwa/components/sync-banner'
import { UpdatePrompt } from '../features/pwa/components/update-prompt'
import { Toaster } from '../ui/toaster'

export const Route = createRootRoute({
  component: () => (
    <>
      <SiteShell
        cartSlot={<CartButton />}
        statusSlot={<SyncBanner />}
        installSlot={<InstallButton />}
      >
        <Outlet />
      </SiteShell>
      <UpdatePrompt />
      <Toaster />
    </>
  ),
  notFoundComponent: NotFoundPage,
  errorComponent: AppErrorPage,
})
