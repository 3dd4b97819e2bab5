import { createFileRoute, redirect } from '@tanstack/react-router'

// SPEC.md §2: one reading puts product pages under /menu/product/{slug}; the canonical path is
// /product/{slug}.
export const Route = createFileRoute('/menu/product/$slug')({
  beforeLoad: ({ params }) => {
    redirect({ to: '/product/$slug', params: { slug: params.slug }, replace: true, throw: true })
  },
})
