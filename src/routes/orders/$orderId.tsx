import { createFileRoute } from '@tanstack/react-router'
import { OrderPage } from '../../features/orders/components/order-page'

export const Route = createFileRoute('/orders/$orderId')({
  component: function Order() {
    const { orderId } = Route.useParams()
    return <OrderPage orderId={orderId} />
  },
})
