/**
 * How a day's sales reach Metrc (docs/decisions/054-metrc-sales-export.md). One interface, so a certified Metrc API client
 * (vendor and user keys, the internet) can be added beside the CSV without touching its callers.
 * The only implementation today writes the CSV a person imports into Metrc (Sales → Receipts →
 * Import) and records on the server that the day was exported.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { downloadText } from '../admin-csv'
import { metrcFileName, metrcSalesToCsv } from './metrc-csv'
import { markMetrcExported, type MetrcSalesDay } from './metrc-sales'

export type SalesReport = {
  /** How the receipts went: a file to import by hand, or (later) sent to Metrc. */
  channel: 'csv-file'
  receipts: number
  fileName?: string
}

export interface SalesReporter {
  readonly label: string
  report(day: MetrcSalesDay): Promise<SalesReport>
}

/** The CSV reporter: hands the file to `save` (a download in the browser), then marks the day. */
export function csvSalesReporter(
  supabase: SupabaseClient,
  save: (fileName: string, text: string) => void = downloadText,
): SalesReporter {
  return {
    label: 'Download CSV',
    async report(day) {
      const fileName = metrcFileName(day.day)
      save(fileName, metrcSalesToCsv(day))
      await markMetrcExported(supabase, day.day)
      return { channel: 'csv-file', receipts: day.receipts.length, fileName }
    },
  }
}
