import { css } from 'styled-system/css'
import type { CheckoutDraft } from '../checkout.validation'
import { choice, field, grid, hint, input, problem, Section } from './checkout-form-parts'

/**
 * "Adult use (21+)" or "Medical patient (18+)" (docs/decisions/051-california-taxes-and-daily-limits.md): a medical order may give the
 * patient's state ID card (MMIC); with one valid on the order's day its cannabis pays no sales
 * tax. The card is optional and checked as typed; an expired one is said at once and kept, so
 * the shopper corrects it or empties both fields.
 */
export function CustomerKindSection({
  draft,
  mmicProblem,
  update,
}: {
  draft: CheckoutDraft
  mmicProblem: string | null
  update: (patch: Partial<CheckoutDraft>) => void
}) {
  const medical = draft.customerKind === 'medical'
  return (
    <Section title="Adult use or medical" done={mmicProblem === null}>
      <fieldset className={grid}>
        <legend className={css({ srOnly: true })}>Is this order adult use or medical?</legend>
        <label className={choice}>
          <input
            type="radio"
            name="customerKind"
            checked={!medical}
            onChange={() => update({ customerKind: 'adult' })}
          />
          Adult use (21+)
        </label>
        <label className={choice}>
          <input
            type="radio"
            name="customerKind"
            checked={medical}
            onChange={() => update({ customerKind: 'medical' })}
          />
          Medical patient (18+)
        </label>
      </fieldset>
      {medical ? (
        <>
          <p className={hint}>
            For patients 18 or older with a physician&apos;s recommendation: staff check it with
            your photo ID when you get your order. With a state Medical Marijuana ID Card (MMIC)
            valid today, the cannabis is exempt from sales and use tax.
          </p>
          <div className={grid}>
            <label className={field}>
              MMIC number (optional)
              <input
                className={input}
                name="mmicNumber"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={mmicProblem !== null}
                aria-describedby={mmicProblem ? 'mmic-problem' : undefined}
                value={draft.mmicNumber}
                onChange={(e) => update({ mmicNumber: e.target.value })}
              />
            </label>
            <label className={field}>
              MMIC expiry date (optional)
              <input
                className={input}
                name="mmicExpiry"
                type="date"
                aria-invalid={mmicProblem !== null}
                aria-describedby={mmicProblem ? 'mmic-problem' : undefined}
                value={draft.mmicExpiry}
                onChange={(e) => update({ mmicExpiry: e.target.value })}
              />
            </label>
          </div>
          {mmicProblem && (
            <p id="mmic-problem" role="alert" className={problem}>
              {mmicProblem}
            </p>
          )}
        </>
      ) : (
        <p className={hint}>For adults 21 or older: staff check your photo ID at handoff.</p>
      )}
    </Section>
  )
}
