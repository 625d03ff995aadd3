/** Catches what is written to the console (log, warn, error) until `restore`, for tests that say nothing may be. */
export function quietConsole(): { readonly lines: unknown[][]; restore(): void } {
  const saved = { log: console.log, warn: console.warn, error: console.error }
  const lines: unknown[][] = []
  console.log = console.warn = console.error = (...args: unknown[]) => void lines.push(args)
  return { lines, restore: () => Object.assign(console, saved) }
}
