/** Command-line options every scenario accepts. */
export interface BenchArgs {
  /** Which database the platform runs on. */
  readonly db: 'sqlite' | 'postgres'
  /** Multiplies the data sizes and durations of the full scenario (1 = the sizes). */
  readonly scale: number
  /** How many times a measurement is repeated; the median is reported. */
  readonly runs: number
  /** Keeps the temporary database (for inspection). */
  readonly keep: boolean
}

/** Parses `--db sqlite|postgres --scale 0.01 --runs 3 --keep` (also `--db=postgres`). */
export function parseArgs(argv: readonly string[] = process.argv.slice(2)): BenchArgs {
  const values = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith('--')) continue
    const [name, inline] = a.slice(2).split('=', 2)
    if (inline !== undefined) values.set(name, inline)
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) values.set(name, argv[++i])
    else values.set(name, 'true')
  }
  const db = values.get('db') ?? process.env.BENCH_DB ?? 'sqlite'
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`--db must be sqlite or postgres (got ${db})`)
  const scale = Number(values.get('scale') ?? process.env.BENCH_SCALE ?? 1)
  if (!(scale > 0)) throw new Error('--scale must be a positive number')
  const runs = Number(values.get('runs') ?? process.env.BENCH_RUNS ?? 3)
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer')
  return { db, scale, runs, keep: values.has('keep') }
}

/** A size scaled down for quick runs, never below `min`. */
export const scaled = (full: number, scale: number, min = 1): number => Math.max(min, Math.round(full * scale))
