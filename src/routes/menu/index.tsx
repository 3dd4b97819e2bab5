import { createFileRoute } from '@tanstack/react-router'
import { useAddToCart } from '../../features/cart/hooks/use-add-to-cart'
import { menuSearchSchema } from '../../features/catalogue/catalogue.validation'
import { MenuPage } from '../../features/catalogue/components/menu-page'

export const Route = createFileRoute('/menu/')({
  validateSearch: menuSearchSchema,
  component: ShopAllRoute,
})

function ShopAllRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const onAdd = useAddToCart()
  return (
    <MenuPage
      category="all"
      search={search}
      onSearchChange={(next) => void navigate({ search: next, replace: true })}
      onAdd={onAdd}
    />
  )
}
