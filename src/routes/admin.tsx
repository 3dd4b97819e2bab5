import { createFileRoute } from '@tanstack/react-router'
import { AdminApp } from '../features/admin/components/admin-app'
import { InstallButton } from '../features/pwa/components/install-button'
import type { AdminSearch } from '../features/admin/admin-search'

// The back office; its code is a lazily loaded chunk the storefront never fetches. Features do
// not import each other, so the route hands the pwa feature's install button to the header.
// Its search (Analytics' date range) is only typed here: the admin parses it (admin-search.ts),
// so the route tree every storefront page loads carries no admin code.
export const Route = createFileRoute('/admin')({
  validateSearch: (search: Record<string, unknown>) => search as AdminSearch,
  component: AdminRoute,
})

function AdminRoute() {
  return <AdminApp installSlot={<InstallButton />} />
}
