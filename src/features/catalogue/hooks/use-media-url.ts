import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { publicMediaUrl } from '../../../lib/media-url'

/** Turns a storage path into the URL of the backend this device syncs with. */
export function useMediaUrl(path: string | null | undefined): string {
  const { config$ } = useHumoData()
  const config = useObservable(config$, config$.value)
  return publicMediaUrl(config?.supabaseUrl, path)
}
