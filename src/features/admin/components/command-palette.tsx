import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { Command } from 'cmdk'
import { useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { dialog } from 'styled-system/recipes'
import {
  ADMIN_COMMANDS,
  COMMAND_CATEGORIES,
  filterCommands,
  shownShortcut,
  type AdminCommand,
  type CommandId,
} from '../admin-commands'
import { isApplePlatform, shortcutKeys } from '../platform-keys'

type Props = {
  open: boolean
  onOpenChange: (open: boolean) => void
  onRun: (id: CommandId) => void
  /** The commands the signed-in role is offered (all when left out). */
  allowed?: (id: CommandId) => boolean
}

const classes = dialog({ placement: 'center' })

/**
 * The command palette (cmdk in an Ark dialog): Escape closes it, Enter runs the highlighted; the
 * dashboard also runs a command from its ⌘/Ctrl+letter shortcut, palette open or not. The
 * letters are named for the platform in use (⌘O on a Mac, Ctrl+O elsewhere), as the header's.
 */
export function CommandPalette({ open, onOpenChange, onRun, allowed }: Props) {
  const [query, setQuery] = useState('')
  const visible = useMemo(
    () => filterCommands(ADMIN_COMMANDS, query).filter((c) => !allowed || allowed(c.id)),
    [query, allowed],
  )
  const mac = useMemo(() => isApplePlatform(), [])
  const keysOf = (command: AdminCommand) => {
    const letter = shownShortcut(command)
    return letter ? shortcutKeys(letter, mac) : null
  }
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(d) => {
        onOpenChange(d.open)
        if (!d.open) setQuery('')
      }}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner
          className={cx(classes.positioner, css({ alignItems: 'flex-start!', pt: '20vh!' }))}
        >
          <ArkDialog.Content className={cx(classes.content, css({ maxW: 'xl', p: '0' }))}>
            <ArkDialog.Title className={css({ srOnly: true })}>Command palette</ArkDialog.Title>
            <Command
              label="Command palette"
              shouldFilter={false}
              loop
              className={css({ display: 'flex', flexDirection: 'column' })}
            >
              <Command.Input
                value={query}
                onValueChange={setQuery}
                placeholder="Search commands..."
                autoFocus
                className={css({
                  bg: 'transparent',
                  borderBottomWidth: '1px',
                  borderColor: 'border.default',
                  fontSize: 'md',
                  outline: 'none',
                  px: '4',
                  py: '3',
                  w: 'full',
                })}
              />
              <Command.List
                className={css({ maxH: '400px', overflowY: 'auto', p: '2' })}
                style={{ maxHeight: 400 }}
              >
                <Command.Empty
                  className={css({
                    color: 'fg.muted',
                    fontSize: 'sm',
                    p: '4',
                    textAlign: 'center',
                  })}
                >
                  No commands found.
                </Command.Empty>
                {COMMAND_CATEGORIES.map((category) => {
                  const items = visible.filter((c) => c.category === category)
                  if (!items.length) return null
                  return (
                    <Command.Group
                      key={category}
                      heading={category}
                      className={css({
                        '& [cmdk-group-heading]': {
                          color: 'fg.subtle',
                          fontSize: 'xs',
                          fontWeight: 'semibold',
                          px: '2',
                          py: '1.5',
                          textTransform: 'uppercase',
                          letterSpacing: 'wide',
                        },
                      })}
                    >
                      {items.map((command) => (
                        <Command.Item
                          key={command.id}
                          value={command.id}
                          aria-keyshortcuts={keysOf(command)?.aria}
                          onSelect={() => {
                            onOpenChange(false)
                            setQuery('')
                            onRun(command.id)
                          }}
                          className={css({
                            alignItems: 'center',
                            borderRadius: 'md',
                            cursor: 'pointer',
                            display: 'flex',
                            gap: '3',
                            justifyContent: 'space-between',
                            px: '3',
                            py: '2',
                            '&[data-selected=true]': { bg: 'bg.muted' },
                          })}
                        >
                          <span>
                            <span
                              className={css({
                                display: 'block',
                                fontSize: 'sm',
                                fontWeight: 'medium',
                              })}
                            >
                              {command.title}
                            </span>
                            <span
                              className={css({
                                color: 'fg.muted',
                                display: 'block',
                                fontSize: 'xs',
                              })}
                            >
                              {command.description}
                            </span>
                          </span>
                          {keysOf(command) && (
                            <kbd
                              className={css({
                                borderColor: 'border.default',
                                borderRadius: 'sm',
                                borderWidth: '1px',
                                color: 'fg.muted',
                                fontFamily: 'mono',
                                fontSize: 'xs',
                                px: '1.5',
                                py: '0.5',
                              })}
                            >
                              {keysOf(command)?.label}
                            </kbd>
                          )}
                        </Command.Item>
                      ))}
                    </Command.Group>
                  )
                })}
              </Command.List>
            </Command>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  )
}
