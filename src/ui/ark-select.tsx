import { Portal } from '@ark-ui/react/portal'
import { Select as ArkSelect, createListCollection } from '@ark-ui/react/select'
import { useEffect, useMemo, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { select } from 'styled-system/recipes'
import { restoreFocus, type Intent } from './lazy-part'
import { ChevronDownIcon } from './icons'
import type { SelectFieldProps } from './select'

const classes = select()

/** The Ark UI select behind `SelectField` (src/ui/select.tsx). */
export function ArkSelectField<V extends string>({
  label,
  options,
  value,
  onValueChange,
  hideLabel,
  intent,
}: SelectFieldProps<V> & { intent: Intent }) {
  const collection = useMemo(() => createListCollection({ items: [...options] }), [options])
  const root = useRef<HTMLDivElement>(null)
  // The static copy's trigger was clicked or pressed while this module was on its way.
  const [openAtOnce] = useState(
    () => intent.clicked.includes('trigger') || !!intent.press?.parts.includes('trigger'),
  )
  useEffect(() => {
    if (!openAtOnce) restoreFocus(root.current, intent)
  }, [intent, openAtOnce])
  return (
    <ArkSelect.Root
      ref={root}
      defaultOpen={openAtOnce}
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
            <ChevronDownIcon size={14} strokeWidth={2} />
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
