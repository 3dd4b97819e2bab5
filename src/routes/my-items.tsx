import { createFileRoute } from '@tanstack/react-router'
import { useAddToCart } from '../features/cart/hooks/use-add-to-cart'
import { MyItemsPage } from '../features/catalogue/components/my-items-page'

export const Route = createFileRoute('/my-items')({ component: MyItemsRoute })

function MyItemsRoute() {
  return <MyItemsPage onAdd={useAddToCart()} />
}
