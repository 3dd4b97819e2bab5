// `npm run bench`: builds the app when its sources changed, measures the storefront's JavaScript
// budget on that build, runs every benchmark in tests/bench (each `*-bench.ts`, found by name),
// then writes one report, tests/bench/reports/report.md and report.json: the machine, the date,
// and each figure with its goal and whether it is met. Benchmarks measure; nothing here asserts.
//
// Each benchmark writes tests/bench/reports/<its name>.json, ideally in the shape of
// tests/bench/bench-figures.ts ({ title, figures: [{ label, value, unit, goal? }] }); a report in
// another shape is kept as it is, with the benchmark's printed output.
//
//   npm run bench                       everything
//   npm run bench -- lighthouse data    only the benchmarks whose file name contains a word
//   npm run bench -- --products 2000 --runs 1   options, passed to every benchmark
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { isBuildFresh, writeBuildStamp } from './build-stamp.mjs'
import { BUDGET_KB, measureBudget } from './check-budget.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const benchDir = path.join(root, 'tests/bench')
const reportDir = path.join(benchDir, 'reports')
const chromium = process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium'

const args = process.argv.slice(2)
const words = []
const options = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--') continue
  if (args[i].startsWith('--')) {
    options.push(args[i])
    if (args[i + 1] !== undefined && !args[i + 1].startsWith('--') && !args[i].includes('='))
      options.push(args[++i])
  } else words.push(args[i])
}

function machine() {
  const cpus = os.cpus()
  let distro = `${os.type()} ${os.release()}`
  try {
    const release = readFileSync('/etc/os-release', 'utf8')
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(release)?.[1]
    if (pretty) distro = `${pretty} (${os.type()} ${os.release()})`
  } catch {
    // not Linux: os.type() and os.release() say enough
  }
  let browser = 'not found'
  try {
    browser = execFileSync(chromium, ['--version'], {
      encoding: 'utf8',
      // Debian's wrapper script complains on stderr about the machine's memory size.
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    // reported as not found
  }
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ramGB: +(os.totalmem() / 1024 ** 3).toFixed(1),
    os: distro,
    node: process.version,
    chromium: browser,
    loadAverageAtStart: os.loadavg().map((n) => +n.toFixed(2)),
  }
}

function meets(value, goal) {
  if (!goal || value === null || value === undefined || Number.isNaN(value)) return null
  return {
    '<': value < goal.value,
    '<=': value <= goal.value,
    '>': value > goal.value,
    '>=': value >= goal.value,
  }[goal.op]
}

/** Runs one benchmark, echoing and keeping its output. */
function runBench(file) {
  return new Promise((resolve) => {
    const started = Date.now()
    let output = ''
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('tests/bench', file), ...options],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk
        ;(stream === child.stdout ? process.stdout : process.stderr).write(chunk)
      })
    }
    child.on('close', (code) =>
      resolve({ code, seconds: +((Date.now() - started) / 1000).toFixed(1), output }),
    )
  })
}

function budgetFigures() {
  const results = measureBudget(path.join(root, 'dist'))
  const figures = []
  for (const result of results) {
    figures.push(
      {
        label: `${result.route}: JavaScript before first interaction (gzipped)`,
        value: result.gzipKB,
        unit: 'KB',
        goal: { op: '<=', value: BUDGET_KB },
      },
      {
        label: `${result.route}: of which the first render waits for`,
        value: result.firstRenderGzipKB,
        unit: 'KB',
      },
      ...result.conditional.map((c) => ({
        label: `${result.route}: the same ${c.when}`,
        value: c.withItGzipKB,
        unit: 'KB',
        goal: { op: '<=', value: BUDGET_KB },
      })),
      {
        label: `${result.route}: fetched after the first catalogue pull (live change feed, not counted)`,
        value: result.afterFirstPull.gzipKB,
        unit: 'KB',
      },
      {
        label: `${result.route}: admin modules loaded`,
        value: result.admin.length,
        unit: '',
        goal: { op: '<=', value: 0 },
      },
    )
  }
  return {
    name: 'storefront-budget',
    title: 'Storefront JavaScript budget (scripts/check-budget.mjs on the production build)',
    date: new Date().toISOString(),
    figures,
    notes: [
      "Counted: index.html's entry chunk and its static imports, the route's code-split component chunks and theirs, and the data boot's dynamic imports (the anonymous PostgREST client, the catalogue pull, the outboxes), each file gzipped (zlib level 6). Listed apart: conditional imports (DOMPurify without the HTML Sanitizer API, list windowing for menus of 120+ products, the bulk writer of a device's first catalogue pull), the live change feed fetched after the first catalogue pull, the service worker registration after load; see the header of scripts/check-budget.mjs.",
    ],
    details: results.map(({ route, chunks }) => ({
      route,
      biggest: chunks
        .slice(0, 8)
        .map((c) => ({ file: c.file, KB: +(c.bytes / 1024).toFixed(1), parts: c.parts })),
    })),
  }
}

const format = (value, unit) => {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a'
  const shown = String(+value.toFixed(Math.abs(value) < 1 ? 3 : 1))
  return unit ? `${shown} ${unit}` : shown
}

function markdown(report) {
  const m = report.machine
  const lines = [
    '# Humo benchmark report',
    '',
    `Date: ${report.date}`,
    '',
    '| Machine | |',
    '| --- | --- |',
    `| CPU | ${m.cpu} |`,
    `| Cores | ${m.cores} |`,
    `| RAM | ${m.ramGB} GB |`,
    `| OS | ${m.os} |`,
    `| Node | ${m.node} |`,
    `| Chromium | ${m.chromium} |`,
    `| Load average (1, 5, 15 min) at start / end | ${m.loadAverageAtStart.join(', ')} / ${m.loadAverageAtEnd.join(', ')} |`,
    '',
  ]
  const summary = report.benches.flatMap((b) => b.figures ?? []).filter((f) => f.goal)
  const met = summary.filter((f) => f.met).length
  lines.push(`Goals met: ${met} of ${summary.length}.`, '')
  for (const bench of report.benches) {
    lines.push(`## ${bench.title ?? bench.name}`, '')
    lines.push(
      `\`${bench.file ?? bench.name}\` — ${bench.status}${bench.seconds ? `, ${bench.seconds} s` : ''}`,
      '',
    )
    for (const note of bench.notes ?? []) lines.push(`- ${note}`)
    if (bench.notes?.length) lines.push('')
    if (bench.figures) {
      lines.push('| Figure | Value | Goal | Met |', '| --- | ---: | --- | :---: |')
      for (const f of bench.figures) {
        const goal = f.goal ? `${f.goal.op} ${format(f.goal.value, f.unit)}` : ''
        const met = f.met === null || f.met === undefined ? '' : f.met ? 'yes' : '**no**'
        lines.push(`| ${f.label} | ${format(f.value, f.unit)} | ${goal} | ${met} |`)
      }
      lines.push('')
    } else {
      lines.push('Figures (as printed):', '', '```', (bench.output ?? '').trim(), '```', '')
    }
  }
  return `${lines.join('\n')}\n`
}

async function main() {
  mkdirSync(reportDir, { recursive: true })
  const report = { date: new Date().toISOString(), machine: machine(), benches: [] }

  if (!isBuildFresh(root)) {
    console.log('[humo] building the app…')
    execFileSync('npm', ['run', '-s', 'build:app'], { cwd: root, stdio: 'inherit' })
    writeBuildStamp(root)
  }
  if (words.length === 0 || words.some((w) => 'budget'.includes(w))) {
    console.log('\n[humo] ▶ storefront JavaScript budget')
    const budget = budgetFigures()
    for (const f of budget.figures) console.log(`  ${f.label}: ${format(f.value, f.unit)}`)
    report.benches.push({ ...budget, status: 'measured' })
  }

  const files = readdirSync(benchDir)
    .filter((f) => f.endsWith('-bench.ts'))
    .filter((f) => words.length === 0 || words.some((w) => f.includes(w)))
    .sort()
  for (const file of files) {
    const name = file.replace(/\.ts$/, '')
    const json = path.join(reportDir, `${name}.json`)
    rmSync(json, { force: true })
    console.log(`\n[humo] ▶ ${file}`)
    const run = await runBench(file)
    const status = run.code === 0 ? 'ran' : `failed (exit ${run.code})`
    let written = null
    if (existsSync(json)) {
      try {
        written = JSON.parse(readFileSync(json, 'utf8'))
      } catch {
        written = null
      }
    }
    if (written && Array.isArray(written.figures)) {
      report.benches.push({ ...written, file, status, seconds: run.seconds })
    } else {
      report.benches.push({
        name,
        file,
        title: name,
        status,
        seconds: run.seconds,
        output: run.output.slice(-8000),
        ...(written ? { details: written } : {}),
      })
    }
  }

  report.machine.loadAverageAtEnd = os.loadavg().map((n) => +n.toFixed(2))
  for (const bench of report.benches) {
    for (const figure of bench.figures ?? []) figure.met = meets(figure.value, figure.goal)
  }
  writeFileSync(path.join(reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`)
  writeFileSync(path.join(reportDir, 'report.md'), markdown(report))
  console.log(
    `\n[humo] report: ${path.relative(root, path.join(reportDir, 'report.md'))} and report.json`,
  )
  const failed = report.benches.filter((b) => b.status.startsWith('failed'))
  if (failed.length) {
    console.error(
      `[humo] ${failed.length} benchmark(s) failed: ${failed.map((b) => b.name).join(', ')}`,
    )
    process.exit(1)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
