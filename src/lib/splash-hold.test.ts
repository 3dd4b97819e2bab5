import { afterEach, describe, expect, it } from 'vitest'
import {
  afterStartUp,
  hiddenStart,
  keptCopy,
  prerendered,
  startingUp,
  startUpDone,
} from './splash-hold'
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

describe('how the app renders behind the start (decisions 011 and 013)', () => {
  it('at once behind the splash, and behind a copy this device kept, even once the splash is gone', () => {
    splashUp = true
    expect(hiddenStart()).toBe(true)
    splashUp = false
    copy = 'kept'
    expect([prerendered(), keptCopy(), hiddenStart()]).toEqual([true, true, true])
  })

  it('in slices behind a first visit’s copy from the network once the splash is gone', () => {
    copy = 'network'
    expect([prerendered(), keptCopy(), hiddenStart()]).toEqual([true, false, false])
    copy = 'none'
    expect([prerendered(), keptCopy(), hiddenStart()]).toEqual([false, false, false])
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
