/**
 * The guest checkout form (SPEC.md §3 "Checkout form", §5). The browser's native checks run in
 * the form; these schemas guard what is stored and sent. Card fields are checked but never kept.
 */
import * as v from 'valibot'

const text = v.pipe(v.string(), v.trim(), v.nonEmpty('Required'))

export const draftSchema = v.object({
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  phone: v.string(),
  address1: v.string(),
  address2: v.string(),
  city: v.string(),
  zipCode: v.string(),
  fulfilment: v.picklist(['delivery', 'pickup']),
  deliveryMethod: v.picklist(['standard', 'express']),
  paymentMethod: v.picklist(['card', 'cash']),
})
export type CheckoutDraft = v.InferOutput<typeof draftSchema>

export const emptyDraft: CheckoutDraft = {
  email: '',
  firstName: '',
  lastName: '',
  phone: '',
  address1: '',
  address2: '',
  city: '',
  zipCode: '',
  fulfilment: 'delivery',
  deliveryMethod: 'standard',
  paymentMethod: 'cash',
}

export const contactSchema = v.object({
  email: v.pipe(text, v.email('Invalid email')),
  firstName: text,
  lastName: text,
  phone: text,
})
export const addressSchema = v.object({
  address1: text,
  city: text,
  zipCode: v.pipe(text, v.regex(/^\d{5}$/, 'Enter a 5-digit ZIP code')),
})
export const cardSchema = v.object({
  nameOnCard: text,
  cardNumber: v.pipe(text, v.regex(/^[\d ]{12,23}$/, 'Invalid card number')),
  expiryDate: v.pipe(text, v.regex(/^(0[1-9]|1[0-2])\/\d\d$/, 'Use MM/YY')),
  cvv: v.pipe(text, v.regex(/^\d{3,4}$/, 'Invalid CVV')),
})

export const isFilled = <T extends v.GenericSchema>(schema: T, value: unknown) =>
  v.safeParse(schema, value).success
