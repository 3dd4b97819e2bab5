// The one shape every benchmark writes into tests/bench/reports/<bench file name>.json, so
// scripts/bench.mjs can gather them into report.md and report.json with each goal and whether it
// is met. Figures are measurements: a benchmark prints them and never asserts on them.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export type Goal = { op: '<' | '<=' | '>' | '>='; value: number }

export type Figure = {
  label: string
  value: number | null
  unit: string
  goal?: Goal
}

export type BenchFigures = {
  /** The benchmark's file name without `.ts`, e.g. `data-bench`. */
  name: string
  title: string
  date: string
  figures: Figure[]
  /** What was measured and how, for the report. */
  notes?: string[]
  /** Anything else the benchmark wants kept (raw samples, settings). */
  details?: unknown
}

export function meets(value: number | null, goal: Goal): boolean {
  if (value === null || Number.isNaN(value)) return false
  switch (goal.op) {
    case '<':
      return value < goal.value
    case '<=':
      return value <= goal.value
    case '>':
      return value > goal.value
    case '>=':
      return value >= goal.value
  }
}

/** Writes the figures of benchmark `name` (its file name without `.ts`); returns the path. */
export function writeBenchFigures(
  name: string,
  report: Omit<BenchFigures, 'name' | 'date'>,
): string {
  const dir = join(process.cwd(), 'tests/bench/reports')
  mkdirSync(dir, { recursive: true })
  const out = join(dir, `${name}.json`)
  const full: BenchFigures = { name, date: new Date().toISOString(), ...report }
  writeFileSync(out, `${JSON.stringify(full, null, 2)}\n`)
  return out
}
