import { useId } from 'react'
import { css } from 'styled-system/css'
import { select } from 'styled-system/recipes'
import type * as Ark from './ark-select'
import { ChevronDownIcon } from './icons'
import { lazyModule, useLazyPart } from './lazy-part'

// A closed select is only a button until it is used: this static copy draws it with the same
// classes and attributes as Ark UI does, and Ark UI's select (with its listbox, positioning and
// dismiss layers) is fetched on the first hover, press or focus (see lazy-part.ts).
const arkPart = lazyModule<typeof Ark>(() => import('./ark-select'))

const classes = select()

export type SelectOption<V extends string> = { value: V; label: string }

export type SelectFieldProps<V extends string> = {
  label: string
  options: readonly SelectOption<V>[]
  value: V
  onValueChange: (value: V) => void
  /** Hide the label visually (it stays the accessible name). */
  hideLabel?: boolean
}

/** A single-choice select (Ark UI). Options never have an empty value (SPEC.md §5). */
export function SelectField<V extends string>(props: SelectFieldProps<V>) {
  const { module: ark, intent, handlers } = useLazyPart(arkPart)
  const labelId = useId()
  if (ark) return <ark.ArkSelectField {...props} intent={intent.current} />
  const { label, options, value, hideLabel } = props
  const part = (name: string) => ({
    'data-scope': 'select',
    'data-part': name,
    dir: 'ltr' as const,
  })
  return (
    <div {...part('root')} {...handlers} className={classes.root}>
      <label
        {...part('label')}
        id={labelId}
        className={hideLabel ? css({ srOnly: true }) : classes.label}
      >
        {label}
      </label>
      <div {...part('control')} data-state="closed" className={classes.control}>
        <button
          {...part('trigger')}
          type="button"
          role="combobox"
          aria-expanded="false"
          aria-haspopup="listbox"
          aria-labelledby={labelId}
          data-state="closed"
          className={classes.trigger}
        >
          <span {...part('value-text')} className={classes.valueText}>
            {options.find((option) => option.value === value)?.label}
          </span>
          <div
            {...part('indicator')}
            aria-hidden="true"
            data-state="closed"
            className={classes.indicator}
          >
            <ChevronDownIcon size={14} strokeWidth={2} />
          </div>
        </button>
      </div>
    </div>
  )
}
