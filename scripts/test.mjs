// Runs the uvu suites under tsx and ends with one plain line "N passed, M failed".
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
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
  process.exit(code === 0 && failed === 0 ? 0 : 1)
})
