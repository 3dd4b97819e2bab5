import { useId } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { Checkbox } from '../../../ui/checkbox'
import {
  LIMIT_CLASS_OPTIONS,
  type LimitClassChoice,
  type ProductFormValues,
} from '../admin.validation'
import { fieldError, fieldLabel, muted, sectionTitle } from './admin-styles'
import { TextField } from './text-field'

type FactValues = Pick<
  ProductFormValues,
  'is_cannabis' | 'limit_class' | 'limit_grams' | 'thc_mg' | 'cbd_mg' | 'servings' | 'weight_grams'
>

type Props = {
  values: FactValues
  errors: Record<string, string>
  onChange: <K extends keyof FactValues>(key: K, value: FactValues[K]) => void
}

/** A number the field holds, or null while it is empty or not one. */
function amount(text: string): number | null {
  const n = Number(text.trim())
  return text.trim() === '' || !Number.isFinite(n) ? null : n
}

/** "10 mg", "2.5 mg", "0.33 mg": what one serving holds, as the storefront shows it. */
export function perServingText(mg: string, servings: string): string | null {
  const total = amount(mg)
  const count = amount(servings)
  if (total === null || count === null || count < 1 || !Number.isInteger(count)) return null
  return `${Number((total / count).toFixed(2))} mg`
}

const numberInput = { type: 'number', inputMode: 'decimal' as const, min: 0 }

/**
 * What the law needs to know of a product (docs/decisions/051-california-taxes-and-daily-limits.md): whether the cannabis excise applies,
 * the daily limit (4 CCR §15409) it counts toward with the grams of one unit, and its potency per
 * package as California labels edibles, drinks, tinctures and capsules (milligrams per package
 * and per serving). The server checks the same (admin_save_product).
 */
export function ProductFactsFields({ values, errors, onChange }: Props) {
  const hintId = useId()
  const weight = amount(values.weight_grams)
  const thcPerServing = perServingText(values.thc_mg, values.servings)
  const cbdPerServing = perServingText(values.cbd_mg, values.servings)
  const counted = values.limit_class !== 'none'
  const gramsHint = errors.limit_grams ? {} : { 'aria-describedby': hintId }
  return (
    <section aria-labelledby={`${hintId}-title`} className={css({ display: 'grid', gap: '4' })}>
      <h3 id={`${hintId}-title`} className={sectionTitle}>
        Cannabis facts
      </h3>
      <Checkbox
        label="Cannabis product (cannabis excise tax applies)"
        checked={values.is_cannabis}
        onCheckedChange={(checked) => onChange('is_cannabis', checked)}
      />
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
          alignItems: 'start',
        })}
      >
        <div>
          {/* The browser's own select: labelled above like the form's other fields. */}
          <label htmlFor={`${hintId}-limit`} className={fieldLabel}>
            Daily limit it counts toward
          </label>
          <select
            id={`${hintId}-limit`}
            value={values.limit_class}
            onChange={(e) => onChange('limit_class', e.target.value as LimitClassChoice)}
            aria-invalid={errors.limit_class ? true : undefined}
            aria-describedby={errors.limit_class ? `${hintId}-limit-error` : undefined}
            className={cx(input(), css({ cursor: 'pointer' }))}
          >
            {LIMIT_CLASS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {errors.limit_class && (
            <p id={`${hintId}-limit-error`} className={fieldError}>
              {errors.limit_class}
            </p>
          )}
        </div>
        <div>
          <TextField
            label="Grams counted toward the daily limit per unit"
            {...numberInput}
            step="0.001"
            placeholder={weight !== null ? `${weight} (the weight)` : 'The weight'}
            disabled={!counted}
            value={values.limit_grams}
            onValueChange={(value) => onChange('limit_grams', value)}
            error={errors.limit_grams}
            {...gramsHint}
          />
          <p id={hintId} className={css({ color: 'fg.muted', fontSize: 'xs', mt: '1' })}>
            Empty counts the weight. For edibles, drinks and tinctures, the THC they hold in grams
            (100 mg is 0.1).
          </p>
        </div>
      </div>
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr 1fr', md: 'repeat(3, 1fr)' },
        })}
      >
        <TextField
          label="THC mg per package"
          {...numberInput}
          step="0.01"
          value={values.thc_mg}
          onValueChange={(value) => onChange('thc_mg', value)}
          error={errors.thc_mg}
        />
        <TextField
          label="CBD mg per package"
          {...numberInput}
          step="0.01"
          value={values.cbd_mg}
          onValueChange={(value) => onChange('cbd_mg', value)}
          error={errors.cbd_mg}
        />
        <TextField
          label="Servings per package"
          {...numberInput}
          min={1}
          step="1"
          inputMode="numeric"
          value={values.servings}
          onValueChange={(value) => onChange('servings', value)}
          error={errors.servings}
        />
      </div>
      {(thcPerServing || cbdPerServing) && (
        <p className={muted} data-testid="mg-per-serving">
          Per serving:{' '}
          {[thcPerServing && `THC ${thcPerServing}`, cbdPerServing && `CBD ${cbdPerServing}`]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
    </section>
  )
}
