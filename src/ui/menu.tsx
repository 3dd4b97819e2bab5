import { Menu as ArkMenu } from '@ark-ui/react/menu'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { menu } from 'styled-system/recipes'

const classes = menu()

export type MenuAction = { value: string; label: string; disabled?: boolean }

export type ActionMenuProps = {
  /** The trigger's content; the trigger is a button with this accessible label. */
  trigger: ReactNode
  label: string
  triggerClassName?: string
  title?: string
  actions: readonly MenuAction[]
  onSelect: (value: string) => void
}

/** A button that opens a list of actions (Ark UI Menu): fully usable from the keyboard. */
export function ActionMenu({
  trigger,
  label,
  triggerClassName,
  title,
  actions,
  onSelect,
}: ActionMenuProps) {
  return (
    <ArkMenu.Root onSelect={(details) => onSelect(details.value)} lazyMount unmountOnExit>
      <ArkMenu.Trigger
        aria-label={label}
        className={[classes.trigger, triggerClassName].filter(Boolean).join(' ')}
        onPointerDown={(event) => event.stopPropagation()}
        onClick={(event) => event.stopPropagation()}
      >
        {trigger}
      </ArkMenu.Trigger>
      <Portal>
        <ArkMenu.Positioner className={classes.positioner}>
          <ArkMenu.Content className={classes.content} onClick={(event) => event.stopPropagation()}>
            {title && (
              <ArkMenu.ItemGroup>
                <ArkMenu.ItemGroupLabel className={classes.itemGroupLabel}>
                  {title}
                </ArkMenu.ItemGroupLabel>
                {actions.map((action) => (
                  <ArkMenu.Item
                    key={action.value}
                    value={action.value}
                    disabled={action.disabled}
                    className={classes.item}
                  >
                    {action.label}
                  </ArkMenu.Item>
                ))}
              </ArkMenu.ItemGroup>
            )}
            {!title &&
              actions.map((action) => (
                <ArkMenu.Item
                  key={action.value}
                  value={action.value}
                  disabled={action.disabled}
                  className={classes.item}
                >
                  {action.label}
                </ArkMenu.Item>
              ))}
          </ArkMenu.Content>
        </ArkMenu.Positioner>
      </Portal>
    </ArkMenu.Root>
  )
}
