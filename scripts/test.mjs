// Runs the uvu suites under tsx and ends with one plain line "N passed, M failed, K skipped",
// followed by why anything was skipped. Suites announce what they skip with a line
// "[<what>] SKIPPED: <reason>" (one skipped test, counted by uvu) or "[<what>] SKIPPED <n> suites:
// <reason>" (suites that were never registered, which uvu cannot count).
import { spawn } from 'node:child_process'

const args = process.argv.slice(2)
const dir = args[0] ?? 'tests'
const pattern = args[1] ?? '\\.test\\.ts$'
const child = spawn(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', dir, pattern], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
let out = ''
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk)
  out += chunk.toString()
  if (out.length > 1_000_000) out = out.slice(-100_000)
})
child.on('close', (code) => {
  const clean = out.replace(/\x1b\[[0-9;]*m/g, '')
  const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? 0)
  const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? 0)
  const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0)
  const failed = Math.max(total - passed - skipped, code === 0 ? 0 : 1)
  let unregistered = 0
  const reasons = []
  for (const m of clean.matchAll(/^\[([\w-]+)\] SKIPPED(?: (\d+) suites?)?: (.*)$/gm)) {
    unregistered += Number(m[2] ?? 0)
    reasons.push(`${m[1]}${m[2] ? ` (${m[2]} suite${m[2] === '1' ? '' : 's'})` : ''}: ${m[3]}`)
  }
  const why = reasons.length ? ` (${reasons.join('; ')})` : ''
  console.log(`${passed} passed, ${failed} failed, ${skipped + unregistered} skipped${why}`)
  process.exit(code === 0 && failed === 0 ? 0 : 1)
})
