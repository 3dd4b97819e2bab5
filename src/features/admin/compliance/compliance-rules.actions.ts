/**
 * Saving and deleting a tax rate or daily limit (`admin_save_compliance_rule`,
 * `admin_delete_compliance_rule`, admins only; the server checks everything again). Like the
 * rest of Admin Settings (shop-settings.actions.ts) these are server calls, not offline writes:
 * the rules decide what every order costs. Both answer the settings document; this device gets
 * it, as every other, through the settings pull that the change signal and `resync` trigger
 * (its `_modified` tells the form which version to wait for).
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { AdminApiError } from '../admin-api'
import type { SavedShopSettings } from '../shop-settings.actions'
import type { RulePayload } from './compliance-rules.validation'

export async function saveComplianceRule(
  supabase: SupabaseClient,
  payload: RulePayload,
): Promise<SavedShopSettings> {
  const response = await supabase.rpc('admin_save_compliance_rule', { p_rule: payload })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  return response.data as SavedShopSettings
}

export async function deleteComplianceRule(
  supabase: SupabaseClient,
  id: string,
): Promise<SavedShopSettings> {
  const response = await supabase.rpc('admin_delete_compliance_rule', { p_id: id })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  return response.data as SavedShopSettings
}
