import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { OrderConfirmationPage } from '../../features/checkout/components/order-confirmation-page'
import { OrderArrivalWatch } from '../../features/orders/components/order-arrival-watch'

const search = v.object({ order: v.optional(v.string()) })

export const Route = createFileRoute('/checkout/success')({
  validateSearch: (input) => v.parse(search, input),
  component: function Confirmation() {
    const { order } = Route.useSearch()
    return (
      <>
        <OrderConfirmationPage orderId={order} />
        <OrderArrivalWatch />
      </>
    )
  },
})
