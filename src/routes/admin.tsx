import { createFileRoute } from '@tanstack/react-router'
import { AdminApp } from '../features/admin/components/admin-app'
import { InstallButton } from '../features/pwa/components/install-button'
import { parseAdminSearch } from '../lib/admin-search'

// The back office; its code is a lazily loaded chunk the storefront never fetches. Features do
// not import each other, so the route hands the pwa feature's install button to the header.
// Its search (Analytics' date range) is parsed without admin code, which must stay in that chunk.
export const Route = createFileRoute('/admin')({
  validateSearch: parseAdminSearch,
  component: AdminRoute,
})

function AdminRoute() {
  return <AdminApp installSlot={<InstallButton />} />
}
