import { createFileRoute } from '@tanstack/react-router'
import { useAddToCart } from '../../features/cart/hooks/use-add-to-cart'
import { ProductPage } from '../../features/catalogue/components/product-page'

export const Route = createFileRoute('/product/$slug')({ component: ProductRoute })

function ProductRoute() {
  const { slug } = Route.useParams()
  const onAdd = useAddToCart()
  return <ProductPage key={slug} slug={slug} onAdd={onAdd} />
}
