import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { YourOrdersPage } from '../features/account/components/your-orders-page'

// The header's "Reorder" asks for the latest order again (reorder=latest).
const search = v.object({ reorder: v.optional(v.picklist(['latest'])) })

export const Route = createFileRoute('/account')({
  validateSearch: (input) => {
    const parsed = v.safeParse(search, input)
    return parsed.success ? parsed.output : {}
  },
  component: function Account() {
    const { reorder } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <YourOrdersPage
        reorderLatest={reorder === 'latest'}
        onReorderLatestHandled={() => void navigate({ search: {}, replace: true })}
      />
    )
  },
})
