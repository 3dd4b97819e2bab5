import type { BrowserContext, Page } from '@playwright/test'

/** The device key the 21+ gate remembers a "yes" under (src/lib/device-storage.ts). */
export const AGE_VERIFIED_KEY = 'humo.age-verified'

/** Answers the age gate for every page of the context before any navigation. */
export async function passAgeGate(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript((key) => window.localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
}
