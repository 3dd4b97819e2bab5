import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { importWhenReachable } from './import-when-reachable'

// Node has no window: an event target is all the retry listens to.
globalThis.window = new EventTarget() as Window & typeof globalThis
const goOnline = () => window.dispatchEvent(new Event('online'))

/** An importer that fails `failures` times (as a fetch does offline), then gives its module. */
function flakyImporter(failures: number) {
  const calls = { count: 0 }
  const importer = () => {
    calls.count += 1
    return calls.count <= failures
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : Promise.resolve({ Toaster: 'the module' })
  }
  return { importer, calls }
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('code fetched on first use', () => {
  it('fetches once and shares the module between callers', async () => {
    const { importer, calls } = flakyImporter(0)
    const load = importWhenReachable(importer)
    const [a, b] = await Promise.all([load(), load()])
    expect(a).toBe(b)
    expect(a.Toaster).toBe('the module')
    expect(calls.count).toBe(1)
  })

  it('does not fail while offline, and arrives when the connection comes back', async () => {
    const { importer, calls } = flakyImporter(1)
    const load = importWhenReachable(importer)
    let settled: string | undefined
    load().then(
      (module) => (settled = module.Toaster),
      () => (settled = 'rejected'),
    )
    await vi.advanceTimersByTimeAsync(1000)
    expect(settled).toBeUndefined()
    expect(calls.count).toBe(1)

    goOnline()
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe('the module')
    expect(calls.count).toBe(2)
  })

  it('without an online event, tries again after 2 s, then 4 s, and not in a tight loop', async () => {
    const { importer, calls } = flakyImporter(2)
    const load = importWhenReachable(importer)
    let module: { Toaster: string } | undefined
    void load().then((m) => (module = m))
    await vi.advanceTimersByTimeAsync(1999)
    expect(calls.count).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.count).toBe(2)
    await vi.advanceTimersByTimeAsync(3999)
    expect(calls.count).toBe(2)
    expect(module).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.count).toBe(3)
    expect(module?.Toaster).toBe('the module')
  })
})
