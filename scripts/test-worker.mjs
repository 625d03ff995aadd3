// One test process of scripts/test.mjs: runs the files it is sent, one at a time, each with uvu's
// own runner, and ends each file's output with a marker line the parent splits on. A file's suites
// run before the next file is imported, so its servers and timers are its own while it runs.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

export const MARKER = '\u0000uvu-file-done'

globalThis.UVU_DEFER = 1
const uvu = await import('uvu')

/**
 * CPU milliseconds of this process and of the children it has reaped (servers, workers, npm,
 * Chromium): /proc/self/stat's utime, stime, cutime and cstime, in ticks of 10 ms. The suite is
 * bound by its two cores, so a file's CPU says more of what it costs than its wall time.
 */
function cpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10
  } catch {
    return 0
  }
}

process.on('message', async ({ name, file }) => {
  const cpu = cpuMs()
  globalThis.UVU_QUEUE = [[name]]
  globalThis.UVU_INDEX = 0
  try {
    await import(pathToFileURL(file).href)
    await uvu.exec(false)
  } catch (error) {
    // A file that throws while loading, or a hook that throws past uvu (an after hook of a suite
    // whose before hook failed), never reaches uvu's totals: count it as one failed test.
    process.stdout.write(`\n${name}: failed to load or to finish\n${error?.stack ?? error}\n  Total:     1\n  Passed:    0\n  Skipped:   0\n`)
  }
  process.stdout.write(`\n${MARKER} ${cpuMs() - cpu}\u0000\n`)
})
process.send?.('ready')
