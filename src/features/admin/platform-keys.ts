/**
 * The keyboard shortcuts as the platform in use names them (issue 33): ⌘ on macOS, iOS and
 * iPadOS, Ctrl elsewhere. The header's "Command" button and the palette's letters both ask here,
 * so a PC never reads ⌘ beside Ctrl.
 */

type NavigatorLike = { platform?: string; userAgentData?: { platform?: string } }

/** Whether the platform's command key is ⌘ (macOS, iOS, iPadOS). */
export function isApplePlatform(
  nav: NavigatorLike | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): boolean {
  const platform = nav?.userAgentData?.platform || nav?.platform || ''
  return /mac|iphone|ipad|ipod/i.test(platform)
}

export type ShortcutKeys = {
  /** What a person reads: "⌘K" on a Mac, "Ctrl+K" elsewhere. */
  label: string
  /** The ARIA form (aria-keyshortcuts): "Meta+K" or "Control+K". */
  aria: string
}

/** The Cmd/Ctrl + `key` shortcut, shown and announced for the platform. */
export function shortcutKeys(key: string, mac: boolean, shift = false): ShortcutKeys {
  const letter = key.toUpperCase()
  if (mac)
    return {
      label: `${shift ? '⇧' : ''}⌘${letter}`,
      aria: `${shift ? 'Shift+' : ''}Meta+${letter}`,
    }
  return {
    label: `Ctrl+${shift ? 'Shift+' : ''}${letter}`,
    aria: `Control+${shift ? 'Shift+' : ''}${letter}`,
  }
}
