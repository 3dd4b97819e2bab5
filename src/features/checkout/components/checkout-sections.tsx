import { css } from 'styled-system/css'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { expressDeliveryLabel, STANDARD_DELIVERY_LABEL } from '../../../lib/delivery-promises'
import type { PickupSlot } from '../../../lib/pickup-windows'
import type { CheckoutDraft } from '../checkout.validation'
import { paymentProvider } from '../payment/payment-provider'
import { choice, field, grid, input, Section } from './checkout-form-parts'

export type TextField =
  'email' | 'firstName' | 'lastName' | 'phone' | 'address1' | 'address2' | 'city' | 'zipCode'

/** A text field's value and its writer, for spreading onto an input. */
export type Bind = (name: TextField) => {
  name: TextField
  value: string
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void
}

type Update = (patch: Partial<CheckoutDraft>) => void

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

export function ContactSection({ bind, done }: { bind: Bind; done: boolean }) {
  return (
    <Section title="Contact Information" done={done}>
      <div className={grid}>
        <label className={field}>
          First Name
          <input className={input} required autoComplete="given-name" {...bind('firstName')} />
        </label>
        <label className={field}>
          Last Name
          <input className={input} required autoComplete="family-name" {...bind('lastName')} />
        </label>
        <label className={field}>
          Email
          <input className={input} type="email" required autoComplete="email" {...bind('email')} />
        </label>
        <label className={field}>
          Phone
          <input className={input} type="tel" required autoComplete="tel" {...bind('phone')} />
        </label>
      </div>
    </Section>
  )
}

/**
 * Pickup or delivery: the shop's own drivers deliver during opening hours (no "shipping" for
 * cannabis), or the shopper picks a window to collect it with their ID.
 */
export function HandoverSection({
  draft,
  update,
  bind,
  slots,
  chosenSlot,
  expressFee,
  done,
}: {
  draft: CheckoutDraft
  update: Update
  bind: Bind
  slots: PickupSlot[]
  chosenSlot: PickupSlot | null
  expressFee: number
  done: boolean
}) {
  const delivery = draft.fulfilment === 'delivery'
  return (
    <Section title="Pickup or Delivery" done={done}>
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
      {delivery ? (
        <DeliveryFields draft={draft} update={update} bind={bind} expressFee={expressFee} />
      ) : (
        <PickupFields draft={draft} update={update} slots={slots} chosenSlot={chosenSlot} />
      )}
    </Section>
  )
}

/** The shop's own drivers: standard the next opening day, express the same day by 2 PM. */
function DeliveryFields({
  draft,
  update,
  bind,
  expressFee,
}: {
  draft: CheckoutDraft
  update: Update
  bind: Bind
  expressFee: number
}) {
  return (
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
          {STANDARD_DELIVERY_LABEL}
        </label>
        <label className={choice}>
          <input
            type="radio"
            name="deliveryMethod"
            checked={draft.deliveryMethod === 'express'}
            onChange={() => update({ deliveryMethod: 'express' })}
          />
          {expressDeliveryLabel(expressFee)}
        </label>
      </fieldset>
      <div className={grid}>
        <label className={field}>
          Address
          <input className={input} required autoComplete="address-line1" {...bind('address1')} />
        </label>
        <label className={field}>
          Apartment, suite (optional)
          <input className={input} autoComplete="address-line2" {...bind('address2')} />
        </label>
        <label className={field}>
          City
          <input className={input} required autoComplete="address-level2" {...bind('city')} />
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
  )
}

/** A window inside opening hours, and what to bring: the ID the buyer's kind needs. */
function PickupFields({
  draft,
  update,
  slots,
  chosenSlot,
}: {
  draft: CheckoutDraft
  update: Update
  slots: PickupSlot[]
  chosenSlot: PickupSlot | null
}) {
  const { facts } = useShopSettings()
  const address = facts.address
  return (
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
      {chosenSlot === null && (
        <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
          No pickup times are open in the next 7 days. Choose delivery or try again later.
        </p>
      )}
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Pick up at {facts.name}, {address.street}, {address.city}, {address.state} {address.zip}.{' '}
        {draft.customerKind === 'medical'
          ? "Bring a valid photo ID showing you are 18 or older, and your physician's recommendation or MMIC."
          : 'Bring a valid photo ID showing you are 21 or older.'}
      </p>
    </>
  )
}

export function PaymentSection({
  draft,
  update,
  done,
}: {
  draft: CheckoutDraft
  update: Update
  done: boolean
}) {
  const payments = paymentProvider.choices(draft.fulfilment)
  const delivery = draft.fulfilment === 'delivery'
  return (
    <Section title="Payment" done={done}>
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
  )
}
