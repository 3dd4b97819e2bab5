import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { useAddToCart } from '../../features/cart/hooks/use-add-to-cart'
import { menuSearchSchema } from '../../features/catalogue/catalogue.validation'
import { MenuPage } from '../../features/catalogue/components/menu-page'
import { isMenuCategory } from '../../lib/menu-categories'

export const Route = createFileRoute('/menu/$category')({
  validateSearch: menuSearchSchema,
  beforeLoad: ({ params, search }) => {
    // SPEC.md §2: a home tile links to the singular /menu/concentrate.
    if (params.category === 'concentrate')
      redirect({
        to: '/menu/$category',
        params: { category: 'concentrates' },
        search,
        replace: true,
        throw: true,
      })
    if (params.category === 'all') redirect({ to: '/menu', search, replace: true, throw: true })
    if (!isMenuCategory(params.category)) notFound({ throw: true })
  },
  component: CategoryMenuRoute,
})

function CategoryMenuRoute() {
  const { category } = Route.useParams()
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const onAdd = useAddToCart()
  if (!isMenuCategory(category)) return null
  return (
    <MenuPage
      key={category}
      category={category}
      search={search}
      onSearchChange={(next) => void navigate({ search: next, replace: true })}
      onAdd={onAdd}
    />
  )
}
