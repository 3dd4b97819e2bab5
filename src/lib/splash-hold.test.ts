import { afterEach, describe, expect, it } from 'vitest'
import { afterStartUp, hiddenStart, prerendered, startingUp, startUpDone } from './splash-hold'
import { COPY_ID, KEPT_COPY_ATTRIBUTE } from './shell-markup'

// Node has no DOM: a document with index.html's splash while it is up, and the page's copy when
// the start has one (from the network, or kept by the service worker).
let splashUp = false
let copy: 'none' | 'network' | 'kept' = 'none'
const copyElement = () => ({
  hasAttribute: (name: string) => copy === 'kept' && name === KEPT_COPY_ATTRIBUTE,
})
globalThis.document = {
  getElementById: (id: string) => {
    if (id === 'boot-splash') return splashUp ? {} : null
    if (id === COPY_ID) return copy === 'none' ? null : copyElement()
    return null
  },
} as unknown as Document
afterEach(() => {
  splashUp = false
  copy = 'none'
})

describe('how the app renders behind the start (docs/decisions/011-data-updates-render-as-transitions.md and docs/decisions/013-starts-from-a-kept-copy.md)', () => {
  it('at once behind the splash, copy or not', () => {
    splashUp = true
    expect(hiddenStart()).toBe(true)
    copy = 'kept'
    expect(hiddenStart()).toBe(true)
  })

  it('in slices behind a copy of the page once the splash is gone, kept or from the network', () => {
    // A start from a kept copy is a repeat visit Lighthouse measures: at once, its render was one
    // long task after another (total blocking time ~500 ms against ~270 ms in slices).
    copy = 'kept'
    expect([prerendered(), hiddenStart()]).toEqual([true, false])
    copy = 'network'
    expect([prerendered(), hiddenStart()]).toEqual([true, false])
    copy = 'none'
    expect([prerendered(), hiddenStart()]).toEqual([false, false])
  })
})

describe('work that waits for the start-up splash to leave', () => {
  it('runs after the splash is gone, not while it counts', () => {
    splashUp = true
    const ran: string[] = []
    afterStartUp(() => ran.push('rows below the first screen'))
    const cancel = afterStartUp(() => ran.push('a grid that unmounted'))
    cancel()
    expect(startingUp()).toBe(true)
    expect(ran).toEqual([])

    splashUp = false
    startUpDone()
    expect(ran).toEqual(['rows below the first screen'])
    startUpDone() // once only
    expect(ran).toEqual(['rows below the first screen'])
  })

  it('runs at once when the start is over', () => {
    let ran = false
    afterStartUp(() => (ran = true))
    expect(ran).toBe(true)
  })
})
