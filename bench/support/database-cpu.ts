import { readFileSync } from 'node:fs'
import pg from 'pg'
import { POSTGRES_URL, type BenchDatabase } from './database.js'

/** CPU seconds (user + system) a process has used, from /proc (Linux, same machine); 0 when unreadable. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0
  }
}

/** The CPU of the database backends serving some processes, sampled while they run. */
export interface DatabaseCpu {
  /** DATABASE_URL for the processes: their connections carry an application_name to find their backends by. */
  readonly url: string
  /** Reads every named backend's CPU; call it often (a backend that closes keeps its last reading). */
  sample(): Promise<void>
  /** CPU seconds of the named backends since they connected (each is new: started for the measured work). */
  seconds(): number
  close(): Promise<void>
}

/**
 * On Postgres (on this machine) much of a billing run's work is the database backends', not the
 * worker's: the workers' connections are named, and their backends' CPU is summed from /proc.
 * Null on SQLite, whose work is the worker's own.
 */
export function databaseCpu(db: BenchDatabase, name: string): DatabaseCpu | null {
  if (db.kind !== 'postgres') return null
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  const connected = client.connect()
  const last = new Map<number, number>()
  return {
    url: `${db.childUrl}${db.childUrl.includes('?') ? '&' : '?'}application_name=${name}`,
    async sample() {
      await connected
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name])
      for (const { pid } of rows) {
        const cpu = cpuSecondsOf(pid)
        if (cpu > 0) last.set(pid, cpu)
      }
    },
    seconds: () => [...last.values()].reduce((sum, cpu) => sum + cpu, 0),
    async close() {
      await connected
      await client.end()
    },
  }
}
