import { cpus, freemem, loadavg, totalmem } from 'node:os'

/** What the figures were measured on. */
export interface Machine {
  readonly cores: number
  readonly memoryGiB: number
  readonly node: string
  readonly cpu: string
  /** 1-minute load average when the scenario started and ended. */
  readonly load: number
}

export function machine(): Machine {
  return {
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    load: Number(loadavg()[0].toFixed(2)),
  }
}

export const freeGiB = (): number => Math.round((freemem() / 2 ** 30) * 10) / 10

/** Resident set size of a process in MB, from /proc (Linux); null when unreadable. */
export async function rssOf(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises')
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
    return Number.isFinite(kb) ? kb / 1024 : null
  } catch {
    return null
  }
}

/** Peak resident set size (VmHWM) of a process in MB; null when unreadable. */
export async function peakRssOf(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises')
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1])
    return Number.isFinite(kb) ? kb / 1024 : null
  } catch {
    return null
  }
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); null when unreadable. */
export async function cpuMsOf(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises')
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return null
  }
}
