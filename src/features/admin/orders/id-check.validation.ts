/**
 * What staff enter at a handoff (docs/decisions/018-order-after-checkout.md, 050): the number on the buyer's ID, which
 * the server keeps only as a keyed hash to count the person's purchases of the day, and for a
 * medical order without sales tax "MMIC checked". The server refuses a handoff without them
 * (id_number_required, mmic_check_required); these messages say so before anything is sent.
 */
import * as v from 'valibot'
import { mmicValidOn } from '../../../lib/order-totals'
import { issuesByField } from '../admin.validation'

/** set_order_status takes at most 64 characters. */
export const MAX_ID_NUMBER = 64
/** Fewer letters and digits than any US state's licence or ID card number has. */
export const MIN_ID_CHARACTERS = 4

export type HandoffForm = { idNumber: string; mmicChecked: boolean }
export type HandoffInput = { idNumber: string; mmicChecked: boolean }

/** A medical order without sales tax: staff must see the patient's card at the handoff. */
export const needsMmicCheck = (order: { salesTaxExempt?: boolean | null }) =>
  order.salesTaxExempt === true

/** The card's expiry has passed on `day` (the shop's calendar): the server refuses the handoff. */
export const mmicExpiredOn = (expiry: string | null | undefined, day: string) =>
  Boolean(expiry) && !mmicValidOn(expiry, day)

const idNumber = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty("Enter the number on the buyer's ID"),
  v.maxLength(MAX_ID_NUMBER, `An ID number has at most ${MAX_ID_NUMBER} characters`),
  v.check(
    (text) => text.replace(/[^A-Za-z0-9]/g, '').length >= MIN_ID_CHARACTERS,
    `Enter the whole ID number: at least ${MIN_ID_CHARACTERS} letters or digits`,
  ),
)

export function validateHandoff(
  form: HandoffForm,
  order: { salesTaxExempt?: boolean | null },
): { ok: true; input: HandoffInput } | { ok: false; errors: Record<string, string> } {
  const schema = v.object({
    idNumber,
    mmicChecked: needsMmicCheck(order)
      ? v.literal(true, 'Check the patient\'s MMIC and tick "MMIC checked" first')
      : v.boolean(),
  })
  const result = v.safeParse(schema, form)
  if (!result.success) return { ok: false, errors: issuesByField(result.issues) }
  return { ok: true, input: result.output }
}
