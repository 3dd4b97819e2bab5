import { useHumoData } from '../data-context'
import { publicMediaUrl } from '../../lib/media-url'
import { useObservable } from './use-observable'

/** Turns a storage path into the URL of the backend this device syncs with. */
export function useMediaUrl(path: string | null | undefined): string {
  const { config$ } = useHumoData()
  const config = useObservable(config$, config$.value)
  return publicMediaUrl(config?.supabaseUrl, path)
}
