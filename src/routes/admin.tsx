import { createFileRoute } from '@tanstack/react-router'
import { AdminApp } from '../features/admin/components/admin-app'
import { InstallButton } from '../features/pwa/components/install-button'

// The back office; its code is a lazily loaded chunk the storefront never fetches. Features do
// not import each other, so the route hands the pwa feature's install button to the header.
// No validateSearch: the admin reads Analytics' date range from the address itself
// (admin-search.ts), so the route tree every storefront page loads carries none of it.
export const Route = createFileRoute('/admin')({ component: AdminRoute })

function AdminRoute() {
  return <AdminApp installSlot={<InstallButton />} />
}
