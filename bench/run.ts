import { spawn } from 'node:child_process'
import { parseArgs } from './support/args.js'
import { machine } from './support/machine.js'
import type { Figure } from './support/report.js'
import { fmt } from './support/stats.js'

/**
 * `npm run bench -- [--db sqlite|postgres|both] [--scale 0.01] [--runs 3] [--only a,b]`: runs
 * every scenario, each in its own process, and prints their figures as one Markdown table.
 */
export const scenarios = ['get-customer', 'create-customers', 'lists', 'billing-run', 'allocation', 'rating', 'server-memory'] as const

const argv = process.argv.slice(2)
const value = (name: string) => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (i < 0) return undefined
  return argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1]
}
const dbs = (value('db') ?? 'sqlite') === 'both' ? ['sqlite', 'postgres'] : [value('db') ?? 'sqlite']
const only = value('only')?.split(',')
const passOn = argv.filter((_, i) => !['--db', '--only'].includes(argv[i]) && !['--db', '--only'].includes(argv[i - 1]) && !/^--(db|only)=/.test(argv[i]))
parseArgs(['--db', dbs[0], ...passOn]) // validates the options before anything runs

interface Result {
  scenario: string
  db: string
  figures: Figure[]
  machine: { load: number; loadEnd: number }
}

function runScenario(name: string, db: string): Promise<Result | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}.ts`, '--db', db, ...passOn], { stdio: ['ignore', 'pipe', 'inherit'] })
    let result: Result | null = null
    let buffer = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      let nl = buffer.indexOf('\n')
      while (nl >= 0) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7)) as Result
        else process.stdout.write(`${line}\n`)
        nl = buffer.indexOf('\n')
      }
    })
    child.on('close', (code) => {
      if (code !== 0) process.stdout.write(`!! ${name} on ${db} exited with ${code}\n`)
      resolve(result)
    })
  })
}

const results: Result[] = []
for (const db of dbs) {
  for (const name of scenarios) {
    if (only && !only.includes(name)) continue
    const r = await runScenario(name, db)
    if (r) results.push(r)
  }
}
const m = machine()
console.log(`\n## Figures (${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.cpu}; options: ${passOn.join(' ') || 'none'})\n`)
console.log('| scenario | db | figure | target | measured | baseline | ratio | verdict | load |')
console.log('|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  for (const f of r.figures) {
    const verdict = f.pass === null ? 'info' : f.pass ? 'PASS' : 'MISS'
    const base = f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}`
    const ratio = f.ratio === undefined ? '' : fmt(f.ratio)
    console.log(`| ${r.scenario} | ${r.db} | ${f.name}${f.note ? ` (${f.note})` : ''} | ${f.target} | ${fmt(f.measured)} ${f.unit} | ${base} | ${ratio} | ${verdict} | ${r.machine.load}→${r.machine.loadEnd} |`)
  }
}
