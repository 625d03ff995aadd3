import { readFileSync } from 'node:fs'

/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions and the files with the most
 * self time. Usage: node --import tsx bench/support/profile-summary.ts <file.cpuprofile> [top]
 */
interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const [file, topArg] = process.argv.slice(2)
const top = Number(topArg ?? 30)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map<number, number>()
profile.samples.forEach((id, i) => {
  if (byId.get(id)!.callFrame.functionName === '(idle)') return
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const total = [...self.values()].reduce((a, b) => a + b, 0)
const fns = new Map<string, number>()
const files = new Map<string, number>()
for (const [id, us] of self) {
  const f = byId.get(id)!.callFrame
  const where = f.url.replace(/^file:\/\//, '').replace(process.cwd(), '.')
  const short = where.replace(/.*node_modules\//, 'nm:')
  const key = `${f.functionName || '(anonymous)'}  ${short}:${f.lineNumber + 1}`
  fns.set(key, (fns.get(key) ?? 0) + us)
  const pkg = where.includes('node_modules/') ? `nm:${where.split('node_modules/')[1].split('/').slice(0, where.includes('node_modules/@') ? 2 : 1).join('/')}` : where || f.functionName
  files.set(pkg, (files.get(pkg) ?? 0) + us)
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (busy ${(total / 1000).toFixed(0)} ms, idle excluded)`)
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
}
show('self time by function', fns)
show('self time by file or package', files)

// Inclusive time: a function counts once per sample it is on the stack of.
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const inclusive = new Map<string, number>()
for (const [id, us] of self) {
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at)!.callFrame
    if (!f.url.includes('/work/') || (f.url.includes('node_modules') && !f.url.includes('.cache/bench-dist'))) continue
    const key = `${f.functionName || '(anonymous)'}  ${f.url.replace(/^file:\/\//, '').replace(process.cwd(), '.')}:${f.lineNumber + 1}`
    if (seen.has(key)) continue
    seen.add(key)
    inclusive.set(key, (inclusive.get(key) ?? 0) + us)
  }
}
show('inclusive time of project functions', inclusive)
