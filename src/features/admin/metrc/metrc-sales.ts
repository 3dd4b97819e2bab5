/**
 * A day's Metrc receipts as the server gives them (`admin_metrc_sales`, docs/decisions/054-metrc-sales-export.md): the orders
 * handed over that day and the returns recorded that day, each with its cannabis lines by
 * package. Read from the server's answer defensively: a field it left out reads empty.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { AdminApiError } from '../admin-api'

export type MetrcLine = {
  productName: string
  packageLabel: string | null
  quantity: number
  unitOfMeasure: string | null
  totalAmount: number
}

export type MetrcReceipt = {
  kind: 'sale' | 'return'
  orderId: string
  receiptNumber: string
  salesDateTime: string
  customerType: 'Consumer' | 'Patient'
  patientLicenseNumber: string | null
  fulfilment: 'pickup' | 'delivery'
  recipient: { city: string | null; county: string | null; postalCode: string | null } | null
  lines: MetrcLine[]
}

export type MetrcSalesDay = {
  day: string
  /** The day is over (before today in the shop's calendar). */
  complete: boolean
  receipts: MetrcReceipt[]
  lastExport: { at: string; by: string | null; receipts: number } | null
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null
const figure = (value: unknown): number => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {}

function lineOf(value: unknown): MetrcLine {
  const raw = record(value)
  return {
    productName: text(raw.productName) ?? '',
    packageLabel: text(raw.packageLabel),
    quantity: figure(raw.quantity),
    unitOfMeasure: text(raw.unitOfMeasure),
    totalAmount: figure(raw.totalAmount),
  }
}

function receiptOf(value: unknown): MetrcReceipt {
  const raw = record(value)
  const recipient = raw.recipient ? record(raw.recipient) : null
  return {
    kind: raw.kind === 'return' ? 'return' : 'sale',
    orderId: text(raw.orderId) ?? '',
    receiptNumber: text(raw.receiptNumber) ?? '',
    salesDateTime: text(raw.salesDateTime) ?? '',
    customerType: raw.customerType === 'Patient' ? 'Patient' : 'Consumer',
    patientLicenseNumber: text(raw.patientLicenseNumber),
    fulfilment: raw.fulfilment === 'delivery' ? 'delivery' : 'pickup',
    recipient: recipient && {
      city: text(recipient.city),
      county: text(recipient.county),
      postalCode: text(recipient.postalCode),
    },
    lines: Array.isArray(raw.lines) ? raw.lines.map(lineOf) : [],
  }
}

export function metrcSalesDayOf(data: unknown): MetrcSalesDay {
  const raw = record(data)
  const last = raw.lastExport ? record(raw.lastExport) : null
  return {
    day: text(raw.day) ?? '',
    complete: raw.complete === true,
    receipts: Array.isArray(raw.receipts) ? raw.receipts.map(receiptOf) : [],
    lastExport: last && {
      at: text(last.at) ?? '',
      by: text(last.by),
      receipts: figure(last.receipts),
    },
  }
}

/** Needs the server: the day's receipts are every staff device's handoffs and returns. */
export async function fetchMetrcSales(
  supabase: SupabaseClient,
  day: string,
): Promise<MetrcSalesDay> {
  const response = await supabase.rpc('admin_metrc_sales', { p_day: day })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  return metrcSalesDayOf(response.data)
}

export async function markMetrcExported(supabase: SupabaseClient, day: string): Promise<void> {
  const response = await supabase.rpc('admin_mark_metrc_exported', { p_day: day })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
}

export type UnexportedDay = { day: string; receipts: number }

/** Completed days with receipts not yet exported (the dashboard's notice). */
export async function fetchUnexportedDays(supabase: SupabaseClient): Promise<UnexportedDay[]> {
  const response = await supabase.rpc('admin_metrc_unexported_days', { p_days: 30 })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  const rows = Array.isArray(response.data) ? (response.data as unknown[]) : []
  return rows.map((row) => ({
    day: text(record(row).day) ?? '',
    receipts: figure(record(row).receipts),
  }))
}
