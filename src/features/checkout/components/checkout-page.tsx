import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import type { CartLineDoc } from '../../../data/schemas/cart-line.schema'
import { formatMoney, totalsFor } from '../../../lib/money'
import { orderNumber } from '../../../lib/order-status'
import { checkPurchaseLimits } from '../../../lib/purchase-limits'
import { pickupSlots, type PickupSlot } from '../../../lib/pickup-windows'
import { SummaryCard, SummaryRows } from '../../../ui/summary-card'
import { toaster } from '../../../ui/toaster'
import { announceWhenAccepted, loadDraft, placeOrder, saveDraft } from '../checkout.actions'
import { addressSchema, contactSchema, isFilled, type CheckoutDraft } from '../checkout.validation'
import { useCartLines } from '../hooks/use-cart-lines'
import { paymentProvider } from '../payment/payment-provider'

const field = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  fontSize: 'sm',
  fontWeight: 'medium',
})
const input = css({
  h: '11',
  px: '3',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  fontSize: 'md',
  fontWeight: 'normal',
  _disabled: { bg: 'bg.muted', color: 'fg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
})
const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })
const choice = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'md',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
})

function Section({ title, done, children }: { title: string; done: boolean; children: ReactNode }) {
  return (
    <details
      open
      className={css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '5' })}
    >
      <summary
        className={css({
          cursor: 'pointer',
          fontWeight: 'bold',
          fontSize: 'lg',
          display: 'flex',
          alignItems: 'center',
          gap: '2',
        })}
      >
        {title}
        {done && (
          <span aria-label={`${title} complete`} className={css({ color: 'accent.fg' })}>
            ✓
          </span>
        )}
      </summary>
      <div className={css({ mt: '4', display: 'flex', flexDirection: 'column', gap: '4' })}>
        {children}
      </div>
    </details>
  )
}

type TextField =
  'email' | 'firstName' | 'lastName' | 'phone' | 'address1' | 'address2' | 'city' | 'zipCode'

/** The windows grouped by day, in order, for the select's option groups. */
function byDay(slots: PickupSlot[]): { day: string; slots: PickupSlot[] }[] {
  const groups: { day: string; slots: PickupSlot[] }[] = []
  for (const slot of slots) {
    const last = groups.at(-1)
    if (last && last.day === slot.dayLabel) last.slots.push(slot)
    else groups.push({ day: slot.dayLabel, slots: [slot] })
  }
  return groups
}

/** The clock the pickup windows are offered from, moved on every minute. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

export function CheckoutPage() {
  const { db, sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  const lines = useCartLines()
  const { money: rules, hours, pickup, facts } = useShopSettings()
  const navigate = useNavigate()
  const now = useMinuteClock()
  const slots = useMemo(() => pickupSlots(hours, pickup, now), [hours, pickup, now])
  const [draft, setDraft] = useState<CheckoutDraft | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    void loadDraft(db).then(setDraft)
  }, [db])

  if (lines === null || draft === null) return null
  if (lines.length === 0) {
    return (
      <main className={css({ textAlign: 'center', py: '20' })}>
        <h1
          className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '3' })}
        >
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

  const update = (patch: Partial<CheckoutDraft>) => {
    const next = { ...draft, ...patch }
    setDraft(next)
    void saveDraft(db, next)
  }
  const bind = (name: TextField) => ({
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
  const address = facts.address
  const totals = totalsFor(
    lines.map((l) => ({ price: l.product.price, quantity: l.quantity })),
    draft.deliveryMethod,
    draft.fulfilment,
    rules,
  )
  const limits = checkPurchaseLimits(
    lines.map((l) => ({
      categorySlug: l.product.categorySlug,
      weightGrams: l.product.weightGrams,
      quantity: l.quantity,
    })),
  )
  const contactDone = isFilled(contactSchema, draft)
  const shippingDone = !delivery || isFilled(addressSchema, draft)
  const paymentDone = payments.some((p) => p.method === draft.paymentMethod)

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (limits.problems.length > 0 || noPickupWindow) return
    setBusy(true)
    setError(null)
    try {
      const pickupWindow =
        !delivery && chosenSlot ? { start: chosenSlot.start, end: chosenSlot.end } : null
      const order = await placeOrder(db, { draft: { ...draft, pickupWindow }, lines, rules })
      const number = orderNumber(order.id)
      // Never "confirmed" here: the order is on the device; the shop has not answered yet. Online,
      // the confirmation page says "Order placed successfully!" once the shop accepted it.
      if (sync.online) announceWhenAccepted(order.id)
      else
        toaster.create({
          type: 'info',
          title: 'Order saved',
          description: `Order ${number} is saved on this device and will be sent when you're back online.`,
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

  return (
    <main>
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '2' })}>
        Checkout
      </h1>
      <p
        className={css({
          color: 'fg.muted',
          mb: '6',
          display: 'flex',
          gap: '3',
          alignItems: 'center',
          flexWrap: 'wrap',
        })}
      >
        Checking out as a guest.
        <button
          type="button"
          disabled
          className={button({ variant: 'outline', size: 'sm' })}
          title="Coming soon"
        >
          Login (Coming soon)
        </button>
        <button
          type="button"
          disabled
          className={button({ variant: 'outline', size: 'sm' })}
          title="Coming soon"
        >
          Create Account (Coming soon)
        </button>
      </p>
      <form
        onSubmit={(e) => void submit(e)}
        className={css({
          display: 'grid',
          gap: '8',
          gridTemplateColumns: { base: '1fr', lg: '1fr 360px' },
          alignItems: 'start',
        })}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <Section title="Contact Information" done={contactDone}>
            <div className={grid}>
              <label className={field}>
                First Name
                <input
                  className={input}
                  required
                  autoComplete="given-name"
                  {...bind('firstName')}
                />
              </label>
              <label className={field}>
                Last Name
                <input
                  className={input}
                  required
                  autoComplete="family-name"
                  {...bind('lastName')}
                />
              </label>
              <label className={field}>
                Email
                <input
                  className={input}
                  type="email"
                  required
                  autoComplete="email"
                  {...bind('email')}
                />
              </label>
              <label className={field}>
                Phone
                <input
                  className={input}
                  type="tel"
                  required
                  autoComplete="tel"
                  {...bind('phone')}
                />
              </label>
            </div>
          </Section>
          <Section title="Pickup or Delivery" done={shippingDone}>
            <fieldset className={grid}>
              <legend className={css({ srOnly: true })}>Pickup or delivery?</legend>
              <label className={choice}>
                <input
                  type="radio"
                  name="fulfilment"
                  checked={delivery}
                  onChange={() => update({ fulfilment: 'delivery' })}
                />
                Delivery
              </label>
              <label className={choice}>
                <input
                  type="radio"
                  name="fulfilment"
                  checked={!delivery}
                  onChange={() => update({ fulfilment: 'pickup' })}
                />
                Pickup in store (free)
              </label>
            </fieldset>
            {delivery && (
              <>
                <fieldset className={grid}>
                  <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>
                    Delivery method
                  </legend>
                  <label className={choice}>
                    <input
                      type="radio"
                      name="deliveryMethod"
                      checked={draft.deliveryMethod === 'standard'}
                      onChange={() => update({ deliveryMethod: 'standard' })}
                    />
                    Standard (2-3 business days)
                  </label>
                  <label className={choice}>
                    <input
                      type="radio"
                      name="deliveryMethod"
                      checked={draft.deliveryMethod === 'express'}
                      onChange={() => update({ deliveryMethod: 'express' })}
                    />
                    Express {formatMoney(rules.expressDelivery)} (same-day, order by 2PM)
                  </label>
                </fieldset>
                <div className={grid}>
                  <label className={field}>
                    Address
                    <input
                      className={input}
                      required
                      autoComplete="address-line1"
                      {...bind('address1')}
                    />
                  </label>
                  <label className={field}>
                    Apartment, suite (optional)
                    <input className={input} autoComplete="address-line2" {...bind('address2')} />
                  </label>
                  <label className={field}>
                    City
                    <input
                      className={input}
                      required
                      autoComplete="address-level2"
                      {...bind('city')}
                    />
                  </label>
                  <label className={field}>
                    State
                    <input className={input} value="CA" disabled readOnly />
                  </label>
                  <label className={field}>
                    ZIP Code
                    <input
                      className={input}
                      required
                      inputMode="numeric"
                      pattern="\d{5}"
                      title="A 5-digit California ZIP code"
                      autoComplete="postal-code"
                      {...bind('zipCode')}
                    />
                  </label>
                </div>
              </>
            )}
            {!delivery && (
              <>
                <label className={field}>
                  Pickup time
                  <select
                    className={input}
                    name="pickupWindow"
                    required
                    value={chosenSlot ? chosenSlot.start : ''}
                    onChange={(e) => {
                      const slot = slots.find((s) => s.start === e.target.value)
                      if (slot) update({ pickupWindow: { start: slot.start, end: slot.end } })
                    }}
                  >
                    {byDay(slots).map((group) => (
                      <optgroup key={group.day} label={group.day}>
                        {group.slots.map((slot) => (
                          <option key={slot.start} value={slot.start}>
                            {group.day}, {slot.timeLabel}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </select>
                </label>
                {noPickupWindow && (
                  <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
                    No pickup times are open in the next 7 days. Choose delivery or try again later.
                  </p>
                )}
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                  Pick up at {facts.name}, {address.street}, {address.city}, {address.state}{' '}
                  {address.zip}. Bring a valid photo ID showing you are 21 or older.
                </p>
              </>
            )}
          </Section>
          <Section title="Payment" done={paymentDone}>
            <fieldset className={grid}>
              <legend className={css({ srOnly: true })}>Payment method</legend>
              {payments.map((p) => (
                <label key={p.method} className={choice}>
                  <input
                    type="radio"
                    name="paymentMethod"
                    checked={draft.paymentMethod === p.method}
                    onChange={() => update({ paymentMethod: p.method })}
                  />
                  {p.label}
                </label>
              ))}
            </fieldset>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              You pay when you {delivery ? 'receive your order' : 'pick up your order'}. Nothing is
              charged online.
            </p>
          </Section>
        </div>
        <SummaryCard title="Order Summary" landmark="aside">
          <ul
            className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}
          >
            {lines.map((l: CartLineDoc) => (
              <li
                key={l.productId}
                className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}
              >
                <span>
                  {l.product.name} × {l.quantity}
                </span>
                <span>{formatMoney(l.product.price * l.quantity)}</span>
              </li>
            ))}
          </ul>
          <SummaryRows
            rows={[
              { label: 'Subtotal', value: formatMoney(totals.subtotal) },
              {
                label: delivery ? 'Shipping' : 'Pickup',
                value: totals.shipping === 0 ? 'Free' : formatMoney(totals.shipping),
              },
              { label: 'Tax', value: formatMoney(totals.tax) },
            ]}
            total={{ label: 'Total', value: formatMoney(totals.total) }}
          />
          {limits.problems.map((p) => (
            <p key={p} role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
              {p}
            </p>
          ))}
          {!sync.online && (
            <p
              role="status"
              className={css({ fontSize: 'sm', bg: 'deal.subtle', p: '3', borderRadius: 'md' })}
            >
              You are offline. Your order will be saved on this device and sent when you&apos;re
              back online.
            </p>
          )}
          {error && (
            <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
              {error}
            </p>
          )}
          <button
            type="submit"
            className={button({ size: 'lg' })}
            disabled={busy || limits.problems.length > 0 || noPickupWindow}
          >
            {busy ? 'Placing order…' : 'Place Order'}
          </button>
          <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
            Prices, tax and stock are confirmed by the shop when your order arrives. You pay in cash
            or by debit card when you get your order.
          </p>
        </SummaryCard>
      </form>
    </main>
  )
}
