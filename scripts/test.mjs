// Runs the uvu suites under tsx and ends with one plain line "N passed, M failed, K skipped",
// followed by why anything was skipped. Suites announce what they skip with a line
// "[<what>] SKIPPED: <reason>" (one skipped test, counted by uvu) or "[<what>] SKIPPED <n> suites:
// <reason>" (suites that were never registered, which uvu cannot count).
//
// Files run in TEST_JOBS processes at once (default 2, this machine's cores). With two, a Postgres
// suite's migration failed now and then: Kysely's introspector read every schema of the database
// and failed when another process dropped one meanwhile (adapters/persistence/dialect/
// search-path-introspector.ts). Each file's output is printed whole when it ends, and the
// slowest files are listed before the summary so that the suite's time stays visible.
import { fork } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { parse } from 'uvu/parse'
import { compactCatalogs } from './test-catalogs.mjs'
import { buildForChildren } from './test-build.mjs'

// The line ending a file's output: the marker, then the CPU milliseconds the file took (test-worker.mjs).
const MARKER = /\u0000uvu-file-done (\d+)\u0000/
const [dir = 'tests', pattern = '\\.test\\.ts$'] = process.argv.slice(2)
const { suites } = await parse(dir, pattern)
// Child processes run bundles built once here (tests/support/child-entry.ts), not tsx again each.
const buildDir = `.tmp/test-build-${process.pid}`
const built = await buildForChildren(buildDir).then(
  () => true,
  (error) => (console.log(`The build for child processes failed; they run under tsx: ${error.message}`), false),
)
if (process.env.TEST_DATABASE_URL) await compactCatalogs(process.env.TEST_DATABASE_URL)
// Commits need not wait for the disk here: nothing in the suites crashes the database server, the
// only failure that loses a commit not yet flushed. On this machine the flush is about 2 ms a commit,
// most of a Postgres test's time where it writes row by row. An explicit PGOPTIONS wins.
const pgOptions = process.env.PGOPTIONS ?? '-c synchronous_commit=off'
const env = { ...process.env, PGOPTIONS: pgOptions, ...(built ? { TEST_BUILD_DIR: buildDir } : {}) }
const jobs = Math.max(1, Math.min(Number(process.env.TEST_JOBS) || 2, suites.length))

// Longest first keeps the processes finishing together. The last run's times (.tmp/test-durations.json)
// order the files when there are any; otherwise the folders whose suites start real processes,
// browsers and databases of their own come first (the fuzz suite is the longest of all).
const DURATIONS = '.tmp/test-durations.json'
const previous = (() => {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'))
  } catch {
    return {}
  }
})()
const folders = ['security', 'reliability', 'browser', 'apps', 'types', 'persistence', 'http', 'core']
const rank = (name) => (folders.indexOf(name.split('/')[0]) + folders.length + 1) % (folders.length + 1)
const queue = [...suites].sort((a, b) => (previous[b.name] ?? -1) - (previous[a.name] ?? -1) || rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))

const totals = { total: 0, passed: 0, skipped: 0 }
const reasons = []
let unregistered = 0
const durations = []

function account(name, output, ms, cpu = 0) {
  process.stdout.write(output)
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '')
  const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? 1)
  const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? 0)
  const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0)
  // uvu swallows what a before or after hook throws (its runner returns from a finally block):
  // only the count shows it, so say so where the file's output ends.
  if (total > passed + skipped && !clean.includes('FAIL')) process.stdout.write(`  ${name}: ${total - passed - skipped} tests did not run; a before or after hook failed (uvu does not print its error)\n`)
  totals.total += total
  totals.passed += passed
  totals.skipped += skipped
  for (const m of clean.matchAll(/^\[([\w-]+)\] SKIPPED(?: (\d+) suites?)?: (.*)$/gm)) {
    unregistered += Number(m[2] ?? 0)
    reasons.push(`${m[1]}${m[2] ? ` (${m[2]} suite${m[2] === '1' ? '' : 's'})` : ''}: ${m[3]}`)
  }
  durations.push({ name, ms, cpu })
}

function worker() {
  return new Promise((resolve) => {
    const child = fork('scripts/test-worker.mjs', [], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
    let current = null
    let retired = false
    let started = 0
    let buffer = ''
    const next = () => {
      current = queue.shift() ?? null
      if (!current) return child.disconnect()
      started = performance.now()
      buffer = ''
      child.send(current)
    }
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString()
      const end = MARKER.exec(buffer)
      if (!end || !current) return
      account(current.name, buffer.slice(0, end.index), performance.now() - started, Number(end[1]))
      // A browser suite may leave its process slow: the fuzz run after browser/portal in one
      // process took 134-135 s three times in six, against 13-19 s after any other file
      // (bench/RESULTS.md, session 34; cause not found). Later files get a fresh process.
      if (current.name.startsWith('browser/')) {
        current = null
        retired = true
        return child.disconnect()
      }
      next()
    })
    child.once('message', next)
    child.on('exit', (code, signal) => {
      if (current) {
        // The process died inside a file (a crash or process.exit): that file fails, the rest go on.
        account(current.name, `${buffer}\n${current.name}: the test process ended (${signal ?? code}) before the file finished\n`, performance.now() - started)
        current = null
        resolve(worker())
      } else resolve(retired && queue.length ? worker() : undefined)
    })
  })
}

await Promise.all(Array.from({ length: jobs }, worker))
rmSync(buildDir, { recursive: true, force: true })
if (dir === 'tests') {
  mkdirSync('.tmp', { recursive: true })
  // Merged over the last times: a run of some files keeps the others' times.
  writeFileSync(DURATIONS, JSON.stringify({ ...previous, ...Object.fromEntries(durations.map((d) => [d.name, Math.round(d.ms)])) }, null, 1))
  writeFileSync('.tmp/test-cpu.json', JSON.stringify(Object.fromEntries(durations.map((d) => [d.name, d.cpu])), null, 1))
}

const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, 10)
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`
const total = (key) => seconds(durations.reduce((sum, d) => sum + d[key], 0)).trim()
console.log(`\nSlowest files (${jobs} processes; wall, then the CPU of the test process and its children; Postgres's own not counted):\n${slowest.map((d) => `  ${seconds(d.ms)} ${seconds(d.cpu)}  ${d.name}`).join('\n')}`)
console.log(`All files: ${total('ms')} of wall, ${total('cpu')} of CPU`)
const failed = totals.total - totals.passed - totals.skipped
const why = reasons.length ? ` (${reasons.join('; ')})` : ''
console.log(`${totals.passed} passed, ${failed} failed, ${totals.skipped + unregistered} skipped${why}`)
process.exit(failed === 0 ? 0 : 1)
