/**
 * Saving Admin Settings. Not an offline write like the order board's: the settings decide what
 * every order costs, so they are saved on the server (`admin_save_shop_settings`, admins only,
 * which checks them again) and reach every device, this one included, through the catalogue
 * pull that the save's change signal and `resync` trigger.
 *
 * NOTE: the answer is not written into the device's `shop_settings` collection. It is pulled
 * without a push side, and RxDB skips pulling a document with an un-pushed local write, so a
 * local write would freeze this device's settings for good.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { AdminApiError } from './admin-api'
import type { ShopSettingsPayload } from './shop-settings.validation'

export type SavedShopSettings = { _modified: string }

export async function saveShopSettings(
  supabase: SupabaseClient,
  payload: ShopSettingsPayload,
  resync: () => void,
): Promise<SavedShopSettings> {
  const response = await supabase.rpc('admin_save_shop_settings', { p_settings: payload })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  resync()
  return response.data as SavedShopSettings
}
