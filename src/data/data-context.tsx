/**
 * Hands the booted data layer to React. The router context carries the same object for loaders.
 */
import { createContext, useContext, type ReactNode } from 'react'
import type { HumoData } from './humo-data'

const DataContext = createContext<HumoData | null>(null)

export function DataProvider({ data, children }: { data: HumoData; children: ReactNode }) {
  return <DataContext value={data}>{children}</DataContext>
}

export function useHumoData(): HumoData {
  const data = useContext(DataContext)
  if (!data) throw new Error('useHumoData needs a <DataProvider>')
  return data
}
