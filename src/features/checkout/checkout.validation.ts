/**
 * The guest checkout form (SPEC.md §3 "Checkout form", §5). The browser's native checks run in
 * the form; these schemas guard what is stored and sent. No card is asked for: the order is paid
 * in cash or by debit card at pickup or on delivery (docs/decisions/019-pay-at-handoff.md).
 */
import * as v from 'valibot'
import { DAY, MMIC_NUMBER, mmicFrom, normaliseMmicNumber, type Mmic } from '../../lib/mmic'

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
  paymentMethod: v.picklist(['cash', 'debit']),
  /** The pickup window chosen; checked against today's windows when the page opens. */
  pickupWindow: v.nullable(v.object({ start: v.string(), end: v.string() })),
  /** "Adult use (21+)" or "Medical patient (18+)" (docs/decisions/051-california-taxes-and-daily-limits.md). */
  customerKind: v.picklist(['adult', 'medical']),
  /** A medical patient's state card (MMIC), optional; both empty when none is given. */
  mmicNumber: v.string(),
  mmicExpiry: v.string(),
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
  pickupWindow: null,
  customerKind: 'adult',
  mmicNumber: '',
  mmicExpiry: '',
}

/** A stored draft as the current type: an old one may say 'card' (now paid by debit card). */
export function normaliseDraft(stored: Record<string, unknown> | undefined): CheckoutDraft {
  const merged = { ...emptyDraft, ...(stored ?? {}) } as Record<string, unknown>
  if (merged.paymentMethod !== 'cash' && merged.paymentMethod !== 'debit') {
    merged.paymentMethod = merged.paymentMethod === 'card' ? 'debit' : 'cash'
  }
  const parsed = v.safeParse(draftSchema, merged)
  return parsed.success ? parsed.output : { ...emptyDraft }
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
export const isFilled = <T extends v.GenericSchema>(schema: T, value: unknown) =>
  v.safeParse(schema, value).success

export { normaliseMmicNumber }

/**
 * The MMIC a medical draft gives, or null. Both fields empty means none; one without the other,
 * or a number the server would refuse, is a problem the form shows (mmicProblem).
 */
export function mmicOf(draft: CheckoutDraft): Mmic | null {
  return mmicFrom(draft.customerKind, draft.mmicNumber, draft.mmicExpiry)
}

/** What is wrong with a medical draft's MMIC, or null (none given, or a card valid `today`). */
export function mmicProblem(draft: CheckoutDraft, today: string): string | null {
  if (draft.customerKind !== 'medical') return null
  const number = normaliseMmicNumber(draft.mmicNumber)
  const expiry = draft.mmicExpiry.trim()
  if (!number && !expiry) return null
  if (!MMIC_NUMBER.test(number)) return 'MMIC number must have 4 to 20 letters or digits'
  if (!DAY.test(expiry)) return 'Enter the MMIC’s expiry date'
  if (expiry < today)
    return 'This MMIC has expired: it cannot exempt the order from sales tax. Enter a valid card, or leave both fields empty to pay sales tax.'
  return null
}
