/**
 * Where the backend is. A build for hosted Supabase carries VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY; a build served by the embedded backend asks it at /humo-config.json.
 * The answer is remembered on the device so the app can start offline and sync later.
 */
export type BackendConfig = { supabaseUrl: string; supabaseAnonKey: string }

const STORAGE_KEY = 'humo.backend-config'

function fromBuild(): BackendConfig | null {
  const url = import.meta.env.VITE_SUPABASE_URL as string | undefined
  const key = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined
  return url && key ? { supabaseUrl: url, supabaseAnonKey: key } : null
}

function remembered(): BackendConfig | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY)
    if (!raw) return null
    const parsed = JSON.parse(raw) as Partial<BackendConfig>
    return parsed.supabaseUrl && parsed.supabaseAnonKey
      ? { supabaseUrl: parsed.supabaseUrl, supabaseAnonKey: parsed.supabaseAnonKey }
      : null
  } catch {
    return null
  }
}

/** Resolves to null only when the device has never reached its backend. */
export async function loadBackendConfig(
  fetchImpl: typeof fetch = fetch,
): Promise<BackendConfig | null> {
  const built = fromBuild()
  if (built) return built
  try {
    const response = await fetchImpl('/humo-config.json', { cache: 'no-store' })
    if (!response.ok) return remembered()
    const config = (await response.json()) as BackendConfig
    localStorage.setItem(STORAGE_KEY, JSON.stringify(config))
    return config
  } catch {
    return remembered()
  }
}
