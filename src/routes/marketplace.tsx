import { createFileRoute } from '@tanstack/react-router'
import { useAddToCart } from '../features/cart/hooks/use-add-to-cart'
import { MarketplacePage } from '../features/catalogue/components/marketplace-page'

export const Route = createFileRoute('/marketplace')({ component: MarketplaceRoute })

function MarketplaceRoute() {
  const onAdd = useAddToCart()
  return <MarketplacePage onAdd={onAdd} />
}
