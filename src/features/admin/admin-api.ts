/**
 * The back office's calls to the server (supabase-js): the product save, import and delete RPCs,
 * media files in the `product_media` bucket, brands / categories / product types, contact
 * messages and adding staff. (The product table itself is read from the device.)
 */
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_BUCKET } from '../../lib/media-url'
import { uploadPath, type AdminProductRow, type SaveProductPayload } from './admin-product'
import type { ReferenceKind } from './admin.validation'
import type { StaffRole } from './staff/staff-roles'

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message)
  }
}

function fail(error: PostgrestError | { message: string; code?: string }): never {
  throw new AdminApiError(error.message, 'code' in error ? error.code : undefined)
}

export async function saveProduct(
  supabase: SupabaseClient,
  payload: Partial<SaveProductPayload> & { id: string },
): Promise<{ id: string; slug: string; created: boolean }> {
  const response = await supabase.rpc('admin_save_product', { p_product: payload })
  if (response.error) fail(response.error)
  return response.data as { id: string; slug: string; created: boolean }
}

/** The message an admin sees when a save cannot reach the server. */
export const OFFLINE_SAVE_MESSAGE =
  'You are offline. Saving needs a connection to the server; your changes are kept here, so save again once you are back online.'

/** A request that never reached the server (no connection), as opposed to a refusal. */
export function isConnectionError(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true
  const message = error instanceof Error ? error.message : String(error)
  return /failed to fetch|networkerror|network request failed|fetch failed|load failed/i.test(
    message,
  )
}

export type ImportResult = { count: number; created: number; updated: number; ids: string[] }

/**
 * Import Products and Bulk Edit: every row in `admin_save_product`'s shape, saved in one
 * transaction; a refusal writes nothing and its message starts with "Row {n}" (1-based).
 */
export async function importProducts(
  supabase: SupabaseClient,
  rows: readonly (Partial<SaveProductPayload> & { id: string })[],
): Promise<ImportResult> {
  const response = await supabase.rpc('admin_import_products', { p_rows: rows })
  if (response.error) fail(response.error)
  return response.data as ImportResult
}

/** The 0-based index of the row a refusal of `admin_import_products` names, if any. */
export function refusedRowIndex(message: string): number | null {
  const match = /^Row (\d+)\b/.exec(message)
  return match ? Number(match[1]) - 1 : null
}

export async function deleteProduct(supabase: SupabaseClient, row: AdminProductRow) {
  const { error } = await supabase.rpc('admin_delete_product', { p_id: row.id })
  if (error) fail(error)
  // SPEC.md §4: deleting continues even if removing its media fails (only logged).
  const paths = row.product_media.map((m) => m.media_url).filter((p) => !/^https?:/.test(p))
  if (paths.length) {
    const removed = await supabase.storage.from(DEFAULT_BUCKET).remove(paths)
    if (removed.error)
      console.warn('Could not remove the media of a deleted product', removed.error)
  }
}

/**
 * The extension for what a file's first bytes are. The server reads a file's type from its bytes
 * and refuses a name that disagrees (docs/decisions/022-media-uploads.md), so a JPEG saved as "photo.png" is named
 * .jpg here rather than refused; null for anything else, which keeps its own name and is refused
 * by the server in its own words.
 */
async function mediaExtension(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer())
  const text = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to))
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg'
  if (head[0] === 0x89 && text(1, 4) === 'PNG') return 'png'
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') return 'webp'
  if (text(4, 8) === 'ftyp') return 'mp4'
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm'
  return null
}

/** Uploads files (never overwriting); on a failure removes what this call already uploaded. */
export async function uploadMedia(
  supabase: SupabaseClient,
  productId: string,
  files: readonly File[],
): Promise<{ path: string; file: File }[]> {
  const done: { path: string; file: File }[] = []
  for (const file of files) {
    const extension = await mediaExtension(file)
    const path = uploadPath(productId, extension ? `upload.${extension}` : file.name)
    const { error } = await supabase.storage
      .from(DEFAULT_BUCKET)
      .upload(path, file, { cacheControl: '3600', upsert: false, contentType: file.type })
    if (error) {
      await removeMediaFiles(
        supabase,
        done.map((d) => d.path),
      )
      // Which file was refused, and why (the server says what it takes).
      throw new AdminApiError(`${file.name}: ${error.message}`)
    }
    done.push({ path, file })
  }
  return done
}

export async function removeMediaFiles(supabase: SupabaseClient, paths: readonly string[]) {
  const own = paths.filter((p) => !/^https?:/.test(p))
  if (!own.length) return
  const { error } = await supabase.storage.from(DEFAULT_BUCKET).remove([...own])
  if (error) console.warn('Could not remove media files', error)
}

const TABLES: Record<ReferenceKind, string> = {
  brand: 'brands',
  category: 'categories',
  'product type': 'product_types',
}

export type ReferenceRow = { id: string; name: string }

export async function createReference(
  supabase: SupabaseClient,
  kind: ReferenceKind,
  values: Record<string, unknown>,
): Promise<ReferenceRow> {
  const row = kind === 'product type' ? values : { ...values, is_active: true }
  const { data, error } = await supabase
    .from(TABLES[kind])
    .insert(row)
    .select('id, name')
    .single<ReferenceRow>()
  if (error) fail(error)
  return data
}

export async function updateReference(
  supabase: SupabaseClient,
  kind: ReferenceKind,
  id: string,
  values: Record<string, unknown>,
) {
  const { error } = await supabase.from(TABLES[kind]).update(values).eq('id', id)
  if (error) fail(error)
}

/**
 * A soft delete (devices pull the tombstone). The server refuses while a product references the
 * row, with SPEC.md §8's message.
 */
export async function deleteReference(supabase: SupabaseClient, kind: ReferenceKind, id: string) {
  const { error } = await supabase.from(TABLES[kind]).update({ _deleted: true }).eq('id', id)
  if (error) fail(error)
}

export type ContactMessage = {
  id: string
  first_name: string
  last_name: string
  email: string
  phone: string | null
  subject: string
  message: string
  created_at: string
  read_at: string | null
}

export async function fetchContactMessages(supabase: SupabaseClient): Promise<ContactMessage[]> {
  const { data, error } = await supabase
    .from('contact_messages')
    .select('id, first_name, last_name, email, phone, subject, message, created_at, read_at')
    .eq('_deleted', false)
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) fail(error)
  return data
}

export async function markMessageRead(supabase: SupabaseClient, id: string) {
  const { error } = await supabase
    .from('contact_messages')
    .update({ read_at: new Date().toISOString() })
    .eq('id', id)
  if (error) fail(error)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * An owner puts an existing account on the staff with a role. By account id: a profile row
 * (owners may write them). By email: the server function `admin_grant_by_email`, when the backend
 * has it. Either way the server refuses an account whose email is unconfirmed (it says to invite
 * them instead).
 */
export async function addStaff(supabase: SupabaseClient, who: string, role: StaffRole) {
  const value = who.trim()
  if (UUID.test(value)) {
    const { error } = await supabase
      .from('user_profiles')
      .upsert({ user_id: value, role, _deleted: false }, { onConflict: 'user_id' })
    if (error) fail(error)
    return
  }
  const { error } = await supabase.rpc('admin_grant_by_email', {
    p_email: value.toLowerCase(),
    p_role: role,
  })
  if (error) {
    if (error.code === 'PGRST202' || /could not find the function/i.test(error.message)) {
      throw new AdminApiError(
        'This backend cannot look accounts up by email. Create an invitation instead and hand it to them.',
      )
    }
    fail(error)
  }
}
