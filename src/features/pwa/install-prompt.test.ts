import { describe, expect, it, vi } from 'vitest'
import { watchInstallPrompt, type BeforeInstallPromptEvent } from './install-prompt'

// The browser side, as small as the install offer needs: a window that receives the offer and
// `appinstalled`, and the `(display-mode: standalone)` media query. (Vitest runs in Node here.)
class FakeMediaQuery extends EventTarget {
  matches = false
  set(matches: boolean) {
    this.matches = matches
    this.dispatchEvent(new Event('change'))
  }
}

class FakeWindow extends EventTarget {
  readonly standalone = new FakeMediaQuery()
  readonly queries: string[] = []
  matchMedia(query: string) {
    this.queries.push(query)
    return this.standalone
  }
}

function offer(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const prompt = vi.fn(() => Promise.resolve())
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt,
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  }) satisfies BeforeInstallPromptEvent
  return { event, prompt }
}

function setup() {
  const host = new FakeWindow()
  const state = { installAvailable: false }
  const installer = watchInstallPrompt(host, state)
  return { host, state, installer }
}

describe('the install offer', () => {
  it('offers nothing until the browser does', async () => {
    const { host, state, installer } = setup()
    expect(host.queries).toEqual(['(display-mode: standalone)'])
    expect(state.installAvailable).toBe(false)
    await expect(installer.install()).resolves.toBe('unavailable')
  })

  it("keeps the browser's offer for the app's own button instead of the mini-infobar", () => {
    const { host, state } = setup()
    const { event } = offer()
    host.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(true)
    expect(state.installAvailable).toBe(true)
  })

  it('keeps an offer the page caught before the app started', async () => {
    const host = new FakeWindow()
    const state = { installAvailable: false }
    const { event, prompt } = offer('accepted')
    const installer = watchInstallPrompt(host, state, event)
    expect(state.installAvailable).toBe(true)
    await expect(installer.install()).resolves.toBe('accepted')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(state.installAvailable).toBe(false)
  })

  it('shows the browser prompt once and reports the choice', async () => {
    const { host, state, installer } = setup()
    const { event, prompt } = offer('dismissed')
    host.dispatchEvent(event)
    await expect(installer.install()).resolves.toBe('dismissed')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(state.installAvailable).toBe(false)
    await expect(installer.install()).resolves.toBe('unavailable')
    expect(prompt).toHaveBeenCalledTimes(1)

    // Chromium makes a new offer later after a dismissal.
    host.dispatchEvent(offer().event)
    expect(state.installAvailable).toBe(true)
  })

  it('hides once the app is installed', () => {
    const { host, state } = setup()
    host.dispatchEvent(offer().event)
    host.dispatchEvent(new Event('appinstalled'))
    expect(state.installAvailable).toBe(false)
  })

  it('hides while the app runs installed (display-mode: standalone)', () => {
    const { host, state } = setup()
    host.standalone.set(true)
    host.dispatchEvent(offer().event)
    expect(state.installAvailable).toBe(false)
    host.standalone.set(false)
    expect(state.installAvailable).toBe(true)
  })

  it('stops listening when stopped', () => {
    const { host, state, installer } = setup()
    installer.stop()
    const { event } = offer()
    host.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(false)
    expect(state.installAvailable).toBe(false)
  })
})
