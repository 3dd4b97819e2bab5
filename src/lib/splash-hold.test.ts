import { afterEach, describe, expect, it } from 'vitest'
import { afterStartUp, startingUp, startUpDone } from './splash-hold'

// Node has no DOM: a document whose only element is index.html's splash, while it is up.
let splashUp = false
globalThis.document = {
  getElementById: (id: string) => (id === 'boot-splash' && splashUp ? {} : null),
} as unknown as Document
afterEach(() => {
  splashUp = false
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
