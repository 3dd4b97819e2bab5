import { useSnapshot } from 'valtio'
import { pwaState } from '../pwa-store'

/** The update and install state of the app, re-rendering when it changes. */
export function usePwaState() {
  return useSnapshot(pwaState)
}
