/**
 * The "Metrc sales" CSV (docs/decisions/054-metrc-sales-export.md): one row per package line, the receipt's fields repeated on
 * each of its rows, in METRC_SALES_COLUMNS' order. Through toCsv (docs/decisions/023-csv-cells.md): text that could
 * start a formula is neutralized, figures go out as plain numbers (a return's -35 stays -35).
 */
import { toCsv, type CsvCell } from '../admin-csv'
import { METRC_SALES_COLUMNS, type MetrcSalesColumn } from './metrc-layout'
import type { MetrcReceipt, MetrcSalesDay } from './metrc-sales'

const cents = (n: number) => Math.round(n * 100) / 100
const tenThousandths = (n: number) => Math.round(n * 10000) / 10000

/** A receipt's rows as column → cell, one per line. */
export function metrcRowsOf(receipt: MetrcReceipt): Record<MetrcSalesColumn, CsvCell>[] {
  return receipt.lines.map((line) => ({
    'Receipt Number': receipt.receiptNumber,
    'Sales Date Time': receipt.salesDateTime,
    'Sales Customer Type': receipt.customerType,
    'Patient License Number': receipt.patientLicenseNumber ?? '',
    'Caregiver License Number': '',
    'Identification Method': '',
    'Package Label': line.packageLabel ?? '',
    Quantity: tenThousandths(line.quantity),
    'Unit Of Measure': line.unitOfMeasure ?? '',
    'Total Amount': cents(line.totalAmount),
    'Recipient Address City': receipt.recipient?.city ?? '',
    'Recipient Address County': receipt.recipient?.county ?? '',
    'Recipient Address Postal Code': receipt.recipient?.postalCode ?? '',
  }))
}

export function metrcSalesToCsv(day: MetrcSalesDay): string {
  return toCsv(
    METRC_SALES_COLUMNS,
    day.receipts.flatMap(metrcRowsOf).map((row) => METRC_SALES_COLUMNS.map((c) => row[c])),
  )
}

/** What staff must finish by hand in Metrc before or after importing the file. */
export type MetrcGaps = {
  /** Lines sold before packages were recorded (no tag): Metrc will refuse them. */
  linesWithoutPackage: number
  /** Deliveries whose address has no county (4 CCR §15049.3(c)(5) asks for it). */
  deliveriesWithoutCounty: number
}

export function metrcGapsOf(day: MetrcSalesDay): MetrcGaps {
  return {
    linesWithoutPackage: day.receipts.flatMap((r) => r.lines).filter((l) => !l.packageLabel).length,
    deliveriesWithoutCounty: day.receipts.filter(
      (r) => r.kind === 'sale' && r.fulfilment === 'delivery' && !r.recipient?.county,
    ).length,
  }
}

export const metrcFileName = (day: string) => `metrc-sales-${day}.csv`
