import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { buyerOf, handoverOf, heldToday } from '../../../data/buyer-today'
import { cartViewOf } from '../../../data/cart-view'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { shopDate } from '../../../lib/compliance-rules'
import { orderNumber } from '../../../lib/order-status'
import { DEFAULT_COMPLIANCE_RULES } from '../../../lib/compliance-defaults'
import { legalHoursOf, pickupSlots } from '../../../lib/pickup-windows'
import { toaster } from '../../../ui/toaster'
import {
  announceWhenAccepted,
  loadDraft,
  placeOrder,
  saveDraft,
  type PlaceOrderInput,
} from '../checkout.actions'
import {
  addressSchema,
  contactSchema,
  isFilled,
  mmicProblem,
  type CheckoutDraft,
} from '../checkout.validation'
import { useCartLines } from '../hooks/use-cart-lines'
import { useRecentOrders } from '../hooks/use-recent-orders'
import { paymentProvider } from '../payment/payment-provider'
import { useMinuteClock } from './checkout-form-parts'
import { ContactSection, HandoverSection, PaymentSection, type Bind } from './checkout-sections'
import { CheckoutSummary } from './checkout-summary'
import { CustomerKindSection } from './customer-kind-section'

function EmptyCheckout() {
  return (
    <main className={css({ textAlign: 'center', py: '20' })}>
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '3' })}>
        Your cart is empty
      </h1>
      <p className={css({ color: 'fg.muted', mb: '6' })}>
        Add something from the menu before checking out.
      </p>
      <Link to="/menu" className={button({ size: 'lg' })}>
        Continue Shopping
      </Link>
    </main>
  )
}

/** Guest checkout is the product (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): no account buttons that lead nowhere. */
function GuestNote() {
  return <p className={css({ color: 'fg.muted', mb: '6' })}>Checking out as a guest.</p>
}

/**
 * Places the order on the device and goes to its confirmation. Never "confirmed" here: the shop
 * has not answered yet; online, the confirmation says "Order placed successfully!" once the shop
 * accepted it.
 */
function useSendOrder(online: boolean) {
  const { db } = useHumoData()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const send = async (input: PlaceOrderInput) => {
    setBusy(true)
    setError(null)
    try {
      const order = await placeOrder(db, input)
      if (online) announceWhenAccepted(order.id)
      else
        toaster.create({
          type: 'info',
          title: 'Order saved',
          description: `Order ${orderNumber(order.id)} is saved on this device and will be sent when you're back online.`,
        })
      await navigate({
        to: '/checkout/success',
        search: { order: order.id },
        state: { orderId: order.id } as never,
      })
    } catch {
      setError('Error placing order. Please check your information and try again.')
      toaster.create({
        type: 'error',
        title: 'Error placing order',
        description: 'Please check your information and try again.',
      })
    } finally {
      setBusy(false)
    }
  }
  return { send, busy, error }
}

export function CheckoutPage() {
  const { db, sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  const lines = useCartLines()
  const orders = useRecentOrders()
  const { money: rules, hours, pickup, rules: complianceRules } = useShopSettings()
  const now = useMinuteClock()
  const slots = useMemo(
    () =>
      pickupSlots(
        hours,
        pickup,
        now,
        // A device that has not synced the shop's rules yet uses the built-in ones.
        legalHoursOf(complianceRules.length > 0 ? complianceRules : DEFAULT_COMPLIANCE_RULES),
      ),
    [hours, pickup, now, complianceRules],
  )
  const [draft, setDraft] = useState<CheckoutDraft | null>(null)
  const { send, busy, error } = useSendOrder(sync.online)

  useEffect(() => {
    void loadDraft(db).then(setDraft)
  }, [db])

  if (lines === null || orders === null || draft === null) return null
  if (lines.length === 0) return <EmptyCheckout />

  const update = (patch: Partial<CheckoutDraft>) => {
    const next = { ...draft, ...patch }
    setDraft(next)
    void saveDraft(db, next)
  }
  const bind: Bind = (name) => ({
    name,
    value: draft[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => update({ [name]: e.target.value }),
  })
  const delivery = draft.fulfilment === 'delivery'
  // A window chosen on an earlier visit that is no longer offered falls back to the earliest.
  const chosenSlot =
    slots.find((s) => s.start === draft.pickupWindow?.start && s.end === draft.pickupWindow.end) ??
    slots[0] ??
    null
  const noPickupWindow = !delivery && chosenSlot === null
  const payments = paymentProvider.choices(draft.fulfilment)
  // Priced as the order will be: the buyer, pickup or delivery and the card chosen here.
  const buyer = buyerOf(draft)
  const view = cartViewOf(lines, {
    money: rules,
    rules: complianceRules,
    buyer,
    held: heldToday(orders, buyer, now),
    handover: handoverOf(draft),
    now,
  })
  const cardProblem = mmicProblem(draft, shopDate(now))
  const blocked = view.limits.problems.length > 0 || noPickupWindow || cardProblem !== null
  const contactDone = isFilled(contactSchema, draft)
  const shippingDone = !delivery || isFilled(addressSchema, draft)
  const paymentDone = payments.some((p) => p.method === draft.paymentMethod)

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    if (blocked) return
    const pickupWindow =
      !delivery && chosenSlot ? { start: chosenSlot.start, end: chosenSlot.end } : null
    void send({ draft: { ...draft, pickupWindow }, lines, rules, complianceRules })
  }

  return (
    <main>
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '2' })}>
        Checkout
      </h1>
      <GuestNote />
      <form
        onSubmit={submit}
        className={css({
          display: 'grid',
          gap: '8',
          gridTemplateColumns: { base: '1fr', lg: '1fr 360px' },
          alignItems: 'start',
        })}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <CustomerKindSection draft={draft} mmicProblem={cardProblem} update={update} />
          <ContactSection bind={bind} done={contactDone} />
          <HandoverSection
            draft={draft}
            update={update}
            bind={bind}
            slots={slots}
            chosenSlot={chosenSlot}
            expressFee={rules.expressDelivery}
            done={shippingDone}
          />
          <PaymentSection draft={draft} update={update} done={paymentDone} />
        </div>
        <CheckoutSummary
          view={view}
          online={sync.online}
          error={error}
          busy={busy}
          blocked={blocked}
        />
      </form>
    </main>
  )
}
