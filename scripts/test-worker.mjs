// One test process of scripts/test.mjs: runs the files it is sent, one at a time, each with uvu's
// own runner, and ends each file's output with a marker line the parent splits on. A file's suites
// run before the next file is imported, so its servers and timers are its own while it runs.
import { pathToFileURL } from 'node:url'

export const MARKER = '\u0000uvu-file-done'

globalThis.UVU_DEFER = 1
const uvu = await import('uvu')

process.on('message', async ({ name, file }) => {
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
  process.stdout.write(`\n${MARKER}\n`)
})
process.send?.('ready')
