import { createFileRoute } from '@tanstack/react-router'

// /admin/*: the same back office (the /admin route renders it for every sub-path).
export const Route = createFileRoute('/admin/$')({ component: () => null })
