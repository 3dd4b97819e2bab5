/**
 * The delivery calls to the server (issue 32, docs/decisions/055-delivery-by-the-rules.md): the drivers to choose from, the
 * signed-in staff member's name and number for receipts, a driver giving their first name, and a
 * delivered order's receipt with its signature. Moves themselves go through the device database.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { AdminApiError } from '../admin-api'
import { parseDrivers, type DriversList } from './driver-choice'
import { parseReceipt, type DeliveryReceipt } from './delivery-receipt'

export type StaffProfile = {
  role: string
  firstName: string | null
  employeeNumber: number | null
}

async function call(supabase: SupabaseClient, fn: string, args?: Record<string, unknown>) {
  const response = await supabase.rpc(fn, args)
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  return response.data as unknown
}

export async function fetchDrivers(supabase: SupabaseClient): Promise<DriversList> {
  const list = parseDrivers(await call(supabase, 'admin_drivers'))
  if (!list) throw new AdminApiError('The server sent no list of drivers')
  return list
}

export function parseProfile(raw: unknown): StaffProfile | null {
  if (!raw || typeof raw !== 'object') return null
  const p = raw as Record<string, unknown>
  return {
    role: typeof p.role === 'string' ? p.role : '',
    firstName: typeof p.firstName === 'string' && p.firstName.trim() ? p.firstName : null,
    employeeNumber: typeof p.employeeNumber === 'number' ? p.employeeNumber : null,
  }
}

export async function fetchStaffProfile(supabase: SupabaseClient): Promise<StaffProfile | null> {
  return parseProfile(await call(supabase, 'my_staff_profile'))
}

export async function saveFirstName(
  supabase: SupabaseClient,
  firstName: string,
): Promise<{ firstName: string | null; employeeNumber: number | null }> {
  const saved = parseProfile(await call(supabase, 'set_my_first_name', { p_first_name: firstName }))
  return { firstName: saved?.firstName ?? null, employeeNumber: saved?.employeeNumber ?? null }
}

export async function fetchDeliveryReceipt(
  supabase: SupabaseClient,
  orderId: string,
): Promise<DeliveryReceipt> {
  const receipt = parseReceipt(await call(supabase, 'admin_delivery_receipt', { p_id: orderId }))
  if (!receipt) throw new AdminApiError('The server sent no receipt')
  return receipt
}
