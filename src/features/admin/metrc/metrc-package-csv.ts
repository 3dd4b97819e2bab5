/**
 * The Metrc package in Export Products and Import Products (docs/decisions/054-metrc-sales-export.md). Optional columns in an
 * imported file: a file without them (an export from before issue 32) leaves every product's
 * package as it is; an empty cell clears it. Each value is checked here as the product form checks
 * it; the package together with the product (a unit for a tag, a weight for a weighed unit) is
 * the server's check, which names the row.
 */
import * as v from 'valibot'
import type { AdminProductRow, SaveProductPayload } from '../admin-product'
import { metrcPackageSchema } from './metrc-package.validation'

export const METRC_PACKAGE_COLUMNS = ['metrc_package_tag', 'metrc_unit'] as const

export type MetrcPackageFields = Pick<SaveProductPayload, 'metrc_package_tag' | 'metrc_unit'>

export function metrcCells(row: AdminProductRow): string[] {
  return [row.metrc_package_tag ?? '', row.metrc_unit ?? '']
}

/** The package a row of an imported file gives (only the columns the file has). */
export function readMetrcCells(
  record: Record<string, string | undefined>,
  columns: readonly string[],
): { fields: Partial<MetrcPackageFields>; errors: string[] } {
  const hasTag = columns.includes('metrc_package_tag')
  const hasUnit = columns.includes('metrc_unit')
  if (!hasTag && !hasUnit) return { fields: {}, errors: [] }
  const parsed = v.safeParse(metrcPackageSchema, {
    metrc_package_tag: hasTag ? (record.metrc_package_tag ?? '') : '',
    metrc_unit: hasUnit ? (record.metrc_unit ?? '').trim() : '',
  })
  if (!parsed.success)
    return {
      fields: {},
      errors: parsed.issues.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`),
    }
  const fields: Partial<MetrcPackageFields> = {}
  if (hasTag) fields.metrc_package_tag = parsed.output.metrc_package_tag || null
  if (hasUnit) fields.metrc_unit = parsed.output.metrc_unit || null
  return { fields, errors: [] }
}
