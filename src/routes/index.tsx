import { createFileRoute } from '@tanstack/react-router'
import { useAddToCart } from '../features/cart/hooks/use-add-to-cart'
import { FeaturedProducts, FlashDeals } from '../features/catalogue/components/featured-products'
import { HomePage } from '../features/content/components/home-page'

export const Route = createFileRoute('/')({ component: HomeRoute })

function HomeRoute() {
  const onAdd = useAddToCart()
  return (
    <HomePage featured={<FeaturedProducts onAdd={onAdd} />} deals={<FlashDeals onAdd={onAdd} />} />
  )
}
