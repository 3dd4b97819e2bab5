import { createFileRoute } from '@tanstack/react-router'
import { AdminApp } from '../features/admin/components/admin-app'

// The back office; its code is a lazily loaded chunk the storefront never fetches.
export const Route = createFileRoute('/admin')({ component: AdminApp })
