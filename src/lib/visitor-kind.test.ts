import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEVICE_KEYS } from './device-storage'
import { gateAnswer, rememberGateAnswer } from './visitor-kind'

// Node has no localStorage: a plain Map behind the Storage methods device-storage.ts uses.
beforeEach(() => {
  const items = new Map<string, string>()
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    },
  })
})
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'localStorage')
})

describe('the age gate’s answer on the device', () => {
  it('is unknown until someone answers, then adult use or medical', () => {
    expect(gateAnswer()).toBeNull()
    rememberGateAnswer('medical')
    expect(gateAnswer()).toBe('medical')
    rememberGateAnswer('adult')
    expect(gateAnswer()).toBe('adult')
  })

  it('reads the "yes" devices kept before medical patients were let in as adult use', () => {
    localStorage.setItem(DEVICE_KEYS.ageVerified, 'yes')
    expect(gateAnswer()).toBe('adult')
    localStorage.setItem(DEVICE_KEYS.ageVerified, 'maybe')
    expect(gateAnswer()).toBeNull()
  })
})
