import { useId } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import type { ProductFormValues } from '../admin.validation'
import { fieldError, fieldLabel, sectionTitle } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import { METRC_UNITS } from './metrc-layout'
import type { MetrcUnitChoice } from './metrc-package.validation'

type PackageValues = Pick<ProductFormValues, 'metrc_package_tag' | 'metrc_unit'>

type Props = {
  values: PackageValues
  errors: Record<string, string>
  onChange: <K extends keyof PackageValues>(key: K, value: PackageValues[K]) => void
}

/**
 * The Metrc package the product is sold from now (docs/decisions/054-metrc-sales-export.md): its UID and its unit. When stock
 * arrives in a new package, staff enter the new tag here; lines already sold keep the package
 * they were sold from. A cannabis product without one cannot be handed over.
 */
export function MetrcPackageFields({ values, errors, onChange }: Props) {
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`} className={css({ display: 'grid', gap: '4' })}>
      <h3 id={`${id}-title`} className={sectionTitle}>
        Metrc package
      </h3>
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', md: '2fr 1fr' },
          alignItems: 'start',
        })}
      >
        <div>
          <TextField
            label="Metrc package tag"
            value={values.metrc_package_tag}
            onValueChange={(value) => onChange('metrc_package_tag', value)}
            error={errors.metrc_package_tag}
            placeholder="1A4FF0100000022000000123"
            autoComplete="off"
            spellCheck={false}
            {...(errors.metrc_package_tag ? {} : { 'aria-describedby': `${id}-hint` })}
          />
          <p id={`${id}-hint`} className={css({ color: 'fg.muted', fontSize: 'xs', mt: '1' })}>
            The 24-character UID on the package this product is sold from. Needed to hand over
            cannabis.
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-unit`} className={fieldLabel}>
            Metrc unit of measure
          </label>
          <select
            id={`${id}-unit`}
            value={values.metrc_unit || 'none'}
            onChange={(e) =>
              onChange(
                'metrc_unit',
                (e.target.value === 'none' ? '' : e.target.value) as MetrcUnitChoice,
              )
            }
            aria-invalid={errors.metrc_unit ? true : undefined}
            aria-describedby={errors.metrc_unit ? `${id}-unit-error` : undefined}
            className={cx(input(), css({ cursor: 'pointer' }))}
          >
            {/* Options never have an empty value (SPEC.md §5): "none" stands for no unit. */}
            <option value="none">No package</option>
            {METRC_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
          {errors.metrc_unit && (
            <p id={`${id}-unit-error`} className={fieldError}>
              {errors.metrc_unit}
            </p>
          )}
        </div>
      </div>
    </section>
  )
}
