/**
 * The "Metrc sales" CSV's columns, in order (docs/decisions/054-metrc-sales-export.md records each
 * with its source; the tests read that table and hold it equal to this list). Metrc California's
 * own import template is behind a licensee's login: these are the public field names of a sales
 * receipt, its transactions and a retail delivery, in the API receipt's order.
 */
export const METRC_SALES_COLUMNS = [
  'Receipt Number',
  'Sales Date Time',
  'Sales Customer Type',
  'Patient License Number',
  'Caregiver License Number',
  'Identification Method',
  'Package Label',
  'Quantity',
  'Unit Of Measure',
  'Total Amount',
  'Recipient Address City',
  'Recipient Address County',
  'Recipient Address Postal Code',
] as const

export type MetrcSalesColumn = (typeof METRC_SALES_COLUMNS)[number]

/** Metrc's units a product's package can be counted in (the server's public.metrc_units()). */
export const METRC_UNITS = ['Each', 'Grams', 'Milligrams', 'Kilograms', 'Ounces', 'Pounds'] as const
export type MetrcUnit = (typeof METRC_UNITS)[number]

/** A package UID as Metrc prints it: 24 hexadecimal characters, 1A4 first. */
export const METRC_TAG_PATTERN = /^1A4[0-9A-F]{21}$/

/** The tag as staff typed or scanned it, as it is stored: spaces gone, capitals. */
export const normalizeMetrcTag = (text: string): string => text.replace(/\s/g, '').toUpperCase()

export const METRC_TAG_MESSAGE =
  "Metrc package tag must be the package's 24-character UID: 1A4 then 21 letters A-F or digits (like 1A4FF0100000022000000123)"
