/** Public URL of a file in a Supabase storage bucket (SPEC.md §7 "Storage"). */
export const DEFAULT_BUCKET = 'product_media'
export const PLACEHOLDER_IMAGE = '/placeholder.svg'

export function publicMediaUrl(
  backendUrl: string | null | undefined,
  path: string | null | undefined,
  bucket = DEFAULT_BUCKET,
): string {
  if (!path) return PLACEHOLDER_IMAGE
  if (/^https?:\/\//.test(path)) return path
  const base = (backendUrl ?? '').replace(/\/$/, '')
  const cleanPath = path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/')
  return `${base}/storage/v1/object/public/${bucket}/${cleanPath}`
}
