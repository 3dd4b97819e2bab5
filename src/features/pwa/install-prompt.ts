import { pwaState, type PwaState } from './pwa-store'

/** Chromium's install offer (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>
}

interface MediaQueryHost {
  readonly matches: boolean
  addEventListener(type: 'change', listener: () => void): void
  removeEventListener(type: 'change', listener: () => void): void
}

/** The part of `window` the install offer needs. */
export interface InstallHost {
  addEventListener(type: string, listener: (event: Event) => void): void
  removeEventListener(type: string, listener: (event: Event) => void): void
  matchMedia(query: string): MediaQueryHost
}

export type InstallOutcome = 'accepted' | 'dismissed' | 'unavailable'

export interface InstallPrompt {
  /** Shows the browser's install dialog; 'unavailable' when the browser offers nothing. */
  install(): Promise<InstallOutcome>
  stop(): void
}

/**
 * Keeps the browser's install offer for a button of our own instead of Chromium's mini-infobar,
 * and sets `installAvailable` while there is an offer and the app is not running installed.
 */
export function watchInstallPrompt(
  host: InstallHost,
  state: Pick<PwaState, 'installAvailable'>,
  /** An offer the page caught before the app's scripts ran (index.html). */
  earlyOffer: Event | null = null,
): InstallPrompt {
  let offer = earlyOffer as BeforeInstallPromptEvent | null
  const standalone = host.matchMedia('(display-mode: standalone)')
  const refresh = () => {
    state.installAvailable = offer !== null && !standalone.matches
  }
  const onOffer = (event: Event) => {
    event.preventDefault()
    offer = event as BeforeInstallPromptEvent
    refresh()
  }
  const onInstalled = () => {
    offer = null
    refresh()
  }
  host.addEventListener('beforeinstallprompt', onOffer)
  host.addEventListener('appinstalled', onInstalled)
  standalone.addEventListener('change', refresh)
  refresh()

  return {
    async install() {
      const current = offer
      if (!current) return 'unavailable'
      // An offer can be shown once; after a dismissal Chromium makes a new one later.
      offer = null
      refresh()
      await current.prompt()
      const { outcome } = await current.userChoice
      return outcome
    },
    stop() {
      host.removeEventListener('beforeinstallprompt', onOffer)
      host.removeEventListener('appinstalled', onInstalled)
      standalone.removeEventListener('change', refresh)
    },
  }
}

let appPrompt: InstallPrompt | null = null

declare global {
  interface Window {
    /** Set by index.html's first script when Chromium offers installation before the app runs. */
    humoInstallOffer?: Event
  }
}

/**
 * Starts listening for the browser's offer. Called before the app's data loads: Chromium makes
 * its offer once per page, possibly before the app's scripts have even arrived (index.html keeps
 * that one for us).
 */
export function startInstallPrompt(): void {
  if (typeof window === 'undefined' || appPrompt) return
  const early = window.humoInstallOffer ?? null
  delete window.humoInstallOffer
  appPrompt = watchInstallPrompt(window, pwaState, early)
}

export function installApp(): Promise<InstallOutcome> {
  return appPrompt ? appPrompt.install() : Promise.resolve('unavailable')
}
