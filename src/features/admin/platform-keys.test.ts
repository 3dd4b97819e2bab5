import { describe, expect, it } from 'vitest'
import { isApplePlatform, shortcutKeys } from './platform-keys'

describe('platform keys', () => {
  it('knows Apple platforms by userAgentData first, then navigator.platform', () => {
    expect(isApplePlatform({ platform: 'MacIntel' })).toBe(true)
    expect(isApplePlatform({ platform: 'iPad' })).toBe(true)
    expect(isApplePlatform({ platform: 'iPhone' })).toBe(true)
    expect(isApplePlatform({ userAgentData: { platform: 'macOS' }, platform: '' })).toBe(true)
    expect(isApplePlatform({ platform: 'Linux x86_64' })).toBe(false)
    expect(isApplePlatform({ platform: 'Win32' })).toBe(false)
    expect(isApplePlatform({ userAgentData: { platform: 'Windows' }, platform: 'MacIntel' })).toBe(
      false,
    )
    expect(isApplePlatform({ userAgentData: { platform: '' }, platform: 'MacIntel' })).toBe(true)
    expect(isApplePlatform(undefined)).toBe(false)
  })

  it('names the shortcut with ⌘ on a Mac and Ctrl elsewhere, never both', () => {
    expect(shortcutKeys('k', true)).toEqual({ label: '⌘K', aria: 'Meta+K' })
    expect(shortcutKeys('k', false)).toEqual({ label: 'Ctrl+K', aria: 'Control+K' })
    expect(shortcutKeys('p', true, true)).toEqual({ label: '⇧⌘P', aria: 'Shift+Meta+P' })
    expect(shortcutKeys('p', false, true)).toEqual({
      label: 'Ctrl+Shift+P',
      aria: 'Control+Shift+P',
    })
    expect(shortcutKeys('o', false).label).not.toContain('⌘')
    expect(shortcutKeys('o', true).label).not.toContain('Ctrl')
  })
})
