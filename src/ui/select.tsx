import { Portal } from '@ark-ui/react/portal'
import { Select as ArkSelect, createListCollection } from '@ark-ui/react/select'
import { useMemo } from 'react'
import { css } from 'styled-system/css'
import { select } from 'styled-system/recipes'

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
export function SelectField<V extends string>({
  label,
  options,
  value,
  onValueChange,
  hideLabel,
}: SelectFieldProps<V>) {
  const collection = useMemo(() => createListCollection({ items: [...options] }), [options])
  return (
    <ArkSelect.Root
      className={classes.root}
      collection={collection}
      value={[value]}
      onValueChange={(details) => {
        const next = details.value[0]
        if (next) onValueChange(next as V)
      }}
      positioning={{ sameWidth: true }}
    >
      <ArkSelect.Label className={hideLabel ? css({ srOnly: true }) : classes.label}>
        {label}
      </ArkSelect.Label>
      <ArkSelect.Control className={classes.control}>
        <ArkSelect.Trigger className={classes.trigger}>
          <ArkSelect.ValueText className={classes.valueText} />
          <ArkSelect.Indicator className={classes.indicator}>
            <svg
              width="14"
              height="14"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden
            >
              <path d="m6 9 6 6 6-6" />
            </svg>
          </ArkSelect.Indicator>
        </ArkSelect.Trigger>
      </ArkSelect.Control>
      <Portal>
        <ArkSelect.Positioner className={classes.positioner}>
          <ArkSelect.Content className={classes.content}>
            {collection.items.map((item) => (
              <ArkSelect.Item key={item.value} item={item} className={classes.item}>
                <ArkSelect.ItemText className={classes.itemText}>{item.label}</ArkSelect.ItemText>
                <ArkSelect.ItemIndicator className={classes.itemIndicator}>
                  ✓
                </ArkSelect.ItemIndicator>
              </ArkSelect.Item>
            ))}
          </ArkSelect.Content>
        </ArkSelect.Positioner>
      </Portal>
      <ArkSelect.HiddenSelect />
    </ArkSelect.Root>
  )
}
