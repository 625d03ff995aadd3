import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchArgs } from './args.js'
import { machine, type Machine } from './machine.js'
import { fmt } from './stats.js'

/** One measured figure, its target and (where the scenario has one) its baseline. */
export interface Figure {
  readonly name: string
  /** The target as text, e.g. `>= 0.7 x baseline` or `< 10 ms`. */
  readonly target: string
  readonly measured: number
  readonly unit: string
  readonly baseline?: number
  /** measured/baseline for throughputs, baseline/measured for durations (higher is better). */
  readonly ratio?: number
  /** null: informative only. */
  readonly pass: boolean | null
  readonly note?: string
}

/** Collects a scenario's figures and prints them as a table and a machine-readable line. */
export class Report {
  private readonly figures: Figure[] = []
  private readonly startMachine: Machine

  constructor(
    readonly scenario: string,
    readonly args: BenchArgs,
  ) {
    this.startMachine = machine()
    log(`# ${scenario} on ${args.db}, scale ${args.scale}, ${args.runs} run(s); ${this.startMachine.cores} cores, ` +
      `${this.startMachine.memoryGiB} GiB, Node ${this.startMachine.node}, load ${this.startMachine.load}`)
  }

  add(figure: Figure): void {
    this.figures.push(figure)
    const ratio = figure.ratio === undefined ? '' : `  ratio ${fmt(figure.ratio)}`
    const base = figure.baseline === undefined ? '' : `  baseline ${fmt(figure.baseline)} ${figure.unit}`
    const verdict = figure.pass === null ? 'INFO' : figure.pass ? 'PASS' : 'MISS'
    log(`${verdict.padEnd(4)}  ${figure.name}: ${fmt(figure.measured)} ${figure.unit}${base}${ratio}  (target ${figure.target})${figure.note ? `  ${figure.note}` : ''}`)
  }

  /** Prints the closing line (`RESULT {json}`) and keeps a copy in the temp directory. */
  finish(extra: Record<string, unknown> = {}): void {
    const end = machine()
    const result = {
      scenario: this.scenario,
      db: this.args.db,
      scale: this.args.scale,
      runs: this.args.runs,
      machine: { ...this.startMachine, loadEnd: end.load },
      figures: this.figures,
      ...extra,
    }
    const dir = join(tmpdir(), 'bench-results')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${this.scenario}-${this.args.db}.json`), JSON.stringify(result, null, 2))
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`)
  }
}

/** Progress and figures go to stdout, with the time of day. */
export function log(line: string): void {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`)
}
